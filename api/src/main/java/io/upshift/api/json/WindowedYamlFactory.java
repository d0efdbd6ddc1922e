package io.upshift.api.json;

import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.parser.ParserImpl;

/**
 * Jackson's YAML factory with SnakeYAML reading through {@link WindowedStreamReader}, so that the
 * cost of a document is linear in its length (Jackson's parser takes a replacement {@link
 * ParserImpl} for this).
 */
final class WindowedYamlFactory extends YAMLFactory {

    WindowedYamlFactory(YAMLFactoryBuilder builder) {
        super(builder);
    }

    private WindowedYamlFactory(WindowedYamlFactory source) {
        super(source, null);
    }

    @Override
    public YAMLFactory copy() {
        return new WindowedYamlFactory(this);
    }

    @Override
    protected YAMLParser _createParser(InputStream in, IOContext ctxt) throws IOException {
        return parser(_createReader(in, null, ctxt), ctxt);
    }

    @Override
    protected YAMLParser _createParser(Reader r, IOContext ctxt) {
        return parser(r, ctxt);
    }

    @Override
    protected YAMLParser _createParser(
            char[] data, int offset, int len, IOContext ctxt, boolean recyclable) {
        return parser(new CharArrayReader(data, offset, len), ctxt);
    }

    @Override
    protected YAMLParser _createParser(byte[] data, int offset, int len, IOContext ctxt)
            throws IOException {
        return parser(_createReader(data, offset, len, null, ctxt), ctxt);
    }

    private YAMLParser parser(Reader reader, IOContext ctxt) {
        LoaderOptions options = _loaderOptions == null ? new LoaderOptions() : _loaderOptions;
        return new Parser(
                ctxt,
                _parserFeatures,
                _yamlParserFeatures,
                _objectCodec,
                reader,
                new ParserImpl(new WindowedStreamReader(reader), options));
    }

    private static final class Parser extends YAMLParser {
        Parser(
                IOContext ctxt,
                int parserFeatures,
                int formatFeatures,
                ObjectCodec codec,
                Reader reader,
                ParserImpl yamlParser) {
            super(ctxt, parserFeatures, formatFeatures, codec, reader, yamlParser);
        }
    }
}
