"""Recording matches hand by hand: players, matches, seats, hands and the audit log."""
