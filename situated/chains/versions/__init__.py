"""Questions about versions: which lines, their listing, changes, first appearance and release notes."""
