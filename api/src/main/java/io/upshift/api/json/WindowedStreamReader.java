package io.upshift.api.json;

import java.io.IOException;
import java.io.Reader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's reader with a window that grows by doubling. SnakeYAML's own copies everything not
 * yet consumed into a new array each time it reads 1,024 more characters, so one long scalar costs
 * time quadratic in its length (a 16 MB line: 49 s) and every mark it hands out keeps one of those
 * copies alive (a 1 MB scalar: 728 MB); here each character is copied a bounded number of times. It
 * behaves as SnakeYAML's does otherwise: the same positions, line and column counting, marks, and
 * the same refusal of non-printable characters.
 */
final class WindowedStreamReader extends StreamReader {

    private static final int CHUNK = 8192;

    private final Reader stream;
    private final char[] buffer = new char[CHUNK + 1];
    private int[] window = new int[0];
    private int length; // of the data in window
    private int pointer;
    private boolean eof;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    WindowedStreamReader(Reader reader) {
        super(reader);
        this.stream = reader;
    }

    @Override
    public Mark getMark() {
        return new Mark("'reader'", index, line, column, window, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int count) {
        for (int i = 0; i < count && ensure(0); i++) {
            int c = window[pointer++];
            index++;
            documentIndex++;
            if (Constant.LINEBR.has(c) || (c == '\r' && ensure(0) && window[pointer] != '\n')) {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return ensure(0) ? window[pointer] : '\0';
    }

    @Override
    public int peek(int offset) {
        return ensure(offset)
                ? window[pointer + offset]
                : '\0'; // ensure first: it moves the window
    }

    @Override
    public String prefix(int count) {
        if (count == 0) return "";
        boolean all = ensure(count); // may move the window: read it after
        return new String(window, pointer, all ? count : Math.min(count, length - pointer));
    }

    @Override
    public String prefixForward(int count) {
        String prefix = prefix(count);
        pointer += count;
        index += count;
        documentIndex += count;
        column += count; // a prefix never holds a line break
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }

    /**
     * True when the code point {@code offset} after the pointer is read (reading more if need be).
     */
    private boolean ensure(int offset) {
        while (!eof && pointer + offset >= length) read();
        return pointer + offset < length;
    }

    private void read() {
        try {
            int read = stream.read(buffer, 0, CHUNK);
            if (read <= 0) {
                eof = true;
                return;
            }
            if (Character.isHighSurrogate(buffer[read - 1])) {
                if (stream.read(buffer, read, 1) == -1)
                    throw new ReaderException(
                            "'reader'",
                            index + read,
                            buffer[read - 1],
                            "The last char is HighSurrogate (no LowSurrogate detected).");
                read++;
            }
            makeRoom(read);
            for (int i = 0; i < read; ) {
                int codePoint = Character.codePointAt(buffer, i);
                if (!isPrintable(codePoint))
                    throw new ReaderException(
                            "'reader'",
                            index + length - pointer,
                            codePoint,
                            "special characters are not allowed");
                window[length++] = codePoint;
                i += Character.charCount(codePoint);
            }
        } catch (IOException e) {
            throw new YAMLException(e);
        }
    }

    /**
     * Room for {@code more} code points after the data: in place when there is, else in a new array
     * twice the size of what is kept, starting at what is not consumed yet.
     */
    private void makeRoom(int more) {
        if (length + more <= window.length) return;
        int kept = length - pointer;
        int[] grown = new int[Math.max(2 * (kept + more), CHUNK)];
        System.arraycopy(window, pointer, grown, 0, kept);
        window = grown;
        length = kept;
        pointer = 0;
    }
}
