"""Every prompt template lives here."""
