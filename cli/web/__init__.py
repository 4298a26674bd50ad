"""`boardrule serve`: the play and designer pages in a browser.

The server (Starlette, run by uvicorn: the optional extra `boardrule[web]`)
holds the games in memory and answers the pages' requests through the
library: the pictures are `interpreter.picture`'s SVG, the moves and their
refusals come from `interpreter.flow` and `interpreter.reasons`, the views
from `interpreter.views`, undo and redo from `interpreter.timeline`, saves
from `interpreter.gamelog`, the designer's diagnostics from
`interpreter.check`. The pages (static/) only draw and send moves: no pack
code runs in the browser.
"""
