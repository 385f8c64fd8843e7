"""The text of an HTML page, derived by one documented, deterministic recipe.

A documentation set shipped as HTML (LibreOffice's and GIMP's help, DocBook and Sphinx output) is
indexed and quoted through its *extracted text*: anchors are code-point offsets into that text,
and the invariant checker re-reads a quote by running the same extraction on the file as it is
now. The recipe, so that anyone can re-derive the text from the raw bytes:

1. the bytes are decoded as strict UTF-8 and newlines normalised (``decode_bytes``), exactly as
   for a ``.md`` or ``.txt`` file;
2. every ``</body>`` and ``</html>`` end tag is removed, as a browser ignores them (libxml2 would
   drop all that follows one, so a page with text after a stray ``</html>`` lost it in silence),
   and the page is parsed with ``lxml.html``; a page nested deeper than libxml2's limit (255
   elements) is refused, since the parser drops everything from that depth to the end;
3. page chrome is removed with its content: the elements ``head``, ``script``, ``style``,
   ``noscript``, ``template``, ``nav``, ``header``, ``footer`` and ``aside``, any element with
   ``role="navigation"``, and DocBook's navigation bars (``class`` ``navheader``/``navfooter``).
   Elements hidden with the ``hidden`` attribute are *kept*: help pages hide platform variants
   and let a script pick one, and guessing which would be shown is not ours to do;
4. the rest is laid out as plain text by ``inscriptis`` with its ``strict`` CSS profile (block
   elements on lines of their own, list items as ``*`` bullets, tables as aligned columns);
5. trailing white space is removed from every line, and runs of blank lines become one.

A page that cannot be parsed, nests too deep, or whose text is empty after step 5, raises
:class:`HtmlExtractionError`: the index reports it and skips the file, it is never indexed in
part or guessed at.
The inscriptis and lxml versions enter :data:`EXTRACTOR_ID`, which the index manifest records;
a different version may lay text out differently, which the drift audit then sees as drift.
"""

from __future__ import annotations

import re
from importlib.metadata import version

from workbench.corpus._errors import HtmlExtractionError

HTML_SUFFIXES = (".html", ".htm", ".xhtml")
"""File names (lower-cased) read through the HTML recipe."""

_CHROME = ("//head", "//script", "//style", "//noscript", "//template", "//nav", "//header",
           "//footer", "//aside", "//*[@role='navigation']",
           "//*[contains(concat(' ', normalize-space(@class), ' '), ' navheader ')]",
           "//*[contains(concat(' ', normalize-space(@class), ' '), ' navfooter ')]")
_CHROME_XPATH = " | ".join(_CHROME)
_TRAILING = re.compile(r"[ \t\u00a0]+$", re.MULTILINE)
_BLANK_RUNS = re.compile(r"\n{3,}")
_DOCUMENT_END_TAGS = re.compile(r"</\s*(?:html|body)\s*>", re.IGNORECASE)

# v2: </body> and </html> removed before parsing; pages past the depth limit refused
EXTRACTOR_ID = f"inscriptis-{version('inscriptis')}+lxml-{version('lxml')}:strict:v2"
"""Names the recipe and the library versions; recorded in the index manifest."""


def is_html(path: str) -> bool:
    """Whether ``path`` is read through the HTML recipe (by its suffix)."""
    return path.lower().endswith(HTML_SUFFIXES)


def extract_html(path: str, markup: str) -> str:
    """The text of one page per the module's recipe (steps 2–5); ``markup`` is already decoded.

    Raises:
        HtmlExtractionError: the page cannot be parsed, or no text is left after extraction.
    """
    import lxml.etree
    import lxml.html
    from inscriptis import Inscriptis
    from inscriptis.css_profiles import CSS_PROFILES
    from inscriptis.model.config import ParserConfig

    if not markup.strip():
        raise HtmlExtractionError(f"{path}: empty HTML file; skipped")
    parser = lxml.html.HTMLParser()
    try:
        # lxml refuses a str that declares its own encoding; the bytes were decoded already
        tree = lxml.html.document_fromstring(
            _DOCUMENT_END_TAGS.sub("", re.sub(r"^\s*<\?xml[^>]*\?>", "", markup, count=1)),
            parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise HtmlExtractionError(f"{path}: HTML that lxml cannot parse ({exc}); skipped") from None
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        raise HtmlExtractionError(f"{path}: elements nested deeper than the parser's limit "
                                  "(255); the text from that depth on would be lost, so the "
                                  "page is skipped, not indexed in part")
    for element in tree.xpath(_CHROME_XPATH):
        if element.getparent() is not None:
            element.drop_tree()
    try:
        text = Inscriptis(tree, ParserConfig(css=CSS_PROFILES["strict"])).get_text()
    except Exception as exc:  # noqa: BLE001 - any layout failure is reported, never guessed past
        raise HtmlExtractionError(f"{path}: inscriptis could not lay the page out ({exc}); "
                                  "skipped") from None
    text = _BLANK_RUNS.sub("\n\n", _TRAILING.sub("", text)).strip("\n")
    if not text.strip():
        raise HtmlExtractionError(f"{path}: no text left after removing the page chrome; skipped")
    return text + "\n"
