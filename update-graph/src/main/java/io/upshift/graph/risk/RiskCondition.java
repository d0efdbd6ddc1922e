package io.upshift.graph.risk;

/** A condition of a risk ({@code Applies}) or of a conditional update ({@code Recommended}). */
public record RiskCondition(String type, String status, String reason, String message) {}
