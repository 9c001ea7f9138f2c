// Accessibility mirror: filled in by the accessibility work (issue 7).
