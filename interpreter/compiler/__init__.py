"""The compiler: a checked pack becomes a Game of generated functions and closures."""
