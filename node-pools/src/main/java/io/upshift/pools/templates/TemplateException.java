package io.upshift.pools.templates;

/**
 * A template that cannot be rendered: the message names the template (its ConfigMap key) and what
 * is wrong.
 */
public final class TemplateException extends IllegalArgumentException {
    private final String template;

    public TemplateException(String template, String why) {
        super("template " + template + ": " + why);
        this.template = template;
    }

    /** The template's key in its set. */
    public String template() {
        return template;
    }
}
