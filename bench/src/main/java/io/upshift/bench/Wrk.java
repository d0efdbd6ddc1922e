package io.upshift.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of wrk (Debian's package {@code wrk}) against a URL, and what its {@code --latency}
 * report says: requests a second, the 99th percentile latency, and the errors it counted.
 */
record Wrk(double requestsPerSecond, double p99Millis, long requests, String errors) {

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([0-9.]+)(us|ms|s)\\b");
    private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ");
    private static final Pattern ERRORS =
            Pattern.compile("(Socket errors:[^\\n]*|Non-2xx or 3xx responses:[^\\n]*)");

    /** Whether {@code wrk} is on the PATH. */
    static boolean installed() {
        try {
            Process p = new ProcessBuilder("wrk", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor();
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static Wrk run(String url, int threads, int connections, int seconds, String... headers)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("wrk", "-t" + threads, "-c" + connections));
        command.add("-d" + seconds + "s");
        command.add("--latency");
        for (String h : headers) {
            command.add("-H");
            command.add(h);
        }
        command.add(url);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        if (p.waitFor() != 0) throw new IOException("wrk failed: " + out.strip());
        return parse(out);
    }

    static Wrk parse(String report) throws IOException {
        Matcher rate = RATE.matcher(report),
                p99 = P99.matcher(report),
                total = TOTAL.matcher(report);
        if (!rate.find() || !p99.find() || !total.find())
            throw new IOException("wrk's report is not as expected: " + report.strip());
        double latency = Double.parseDouble(p99.group(1));
        double millis =
                switch (p99.group(2)) {
                    case "us" -> latency / 1000;
                    case "s" -> latency * 1000;
                    default -> latency;
                };
        StringBuilder errors = new StringBuilder();
        Matcher e = ERRORS.matcher(report);
        while (e.find()) errors.append(errors.length() == 0 ? "" : "; ").append(e.group(1).strip());
        return new Wrk(
                Double.parseDouble(rate.group(1)),
                millis,
                Long.parseLong(total.group(1)),
                errors.toString());
    }
}
