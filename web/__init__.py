"""Templates and static files of the pages (the repository's web/ folder)."""
