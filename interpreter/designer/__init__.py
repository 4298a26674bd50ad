"""The designer's tools: check with pack tests, rules references and rulebooks, starters, pictures."""
