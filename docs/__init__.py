"""The designers' manual, installed as boardrule.docs so that the language server can quote it."""
