package io.upshift.clusterversion.recommend;

/**
 * One precheck result: True is no cause for concern, False a concern, Unknown not enough
 * information. A concern can be accepted with {@code --accept <acceptanceName>}.
 */
public record Precheck(
        String type, String status, String reason, String message, String acceptanceName) {

    public boolean happy() {
        return "True".equals(status);
    }
}
