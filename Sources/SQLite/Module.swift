// Placeholder so the module builds; filled in by its issue.
