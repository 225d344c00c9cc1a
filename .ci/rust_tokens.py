"""Splits Rust source into tokens, for the checks in .ci/ (module-order, shape).

Only code is kept: comments (line, block and nested block comments, doc comments included) are
dropped, because doc links and prose may name any module and hold any brace. String, raw string,
byte string and char literals become one token each, so the paths and braces inside them are not
mistaken for code. Lifetimes (`'a`) are told apart from char literals (`'a'`).

This is not a full Rust lexer: it knows just enough to find paths, `use` trees, `mod` items, `fn`
items and matching braces in this crate's code.
"""
import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str  # "ident", "punct", "literal" or "lifetime"
    text: str
    line: int  # 1-based line of the token's first character


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?")
# A raw string opens with r, br or cr, any number of #, and a quote.
_RAW_STRING = re.compile(r'(?:b|c)?r(#*)"')


def tokenize(text):
    """Returns the code tokens of a Rust source text, in order."""
    tokens = []
    i, line, n = 0, 1, len(text)

    def skip_quoted(start, quote):
        """Returns the index just past a quoted literal whose opening quote is at `start`."""
        j = start + 1
        while j < n and text[j] != quote:
            j += 2 if text[j] == "\\" else 1
        return j + 1

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            # Block comments nest in Rust.
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += text.count("\n", i, j)
            i = j
        elif (raw := _RAW_STRING.match(text, i)) and not (
            # `r#ident` is a raw identifier, not a raw string; the regex needs a quote, so a
            # match here is always a string, but an identifier ending in r (`bar"`) is not.
            i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            closing = '"' + raw.group(1)
            end = text.find(closing, raw.end())
            end = n if end < 0 else end + len(closing)
            tokens.append(Token("literal", text[i:end], line))
            line += text.count("\n", i, end)
            i = end
        elif c == '"' or (c in "bc" and text.startswith('"', i + 1)):
            start = i + (0 if c == '"' else 1)
            end = skip_quoted(start, '"')
            tokens.append(Token("literal", text[i:end], line))
            line += text.count("\n", i, end)
            i = end
        elif c == "'" or (c == "b" and text.startswith("'", i + 1)):
            start = i + (0 if c == "'" else 1)
            # A char literal is a quote, one char or an escape, and a quote; anything else
            # after a quote is a lifetime or a loop label.
            if text.startswith("\\", start + 1) or text.startswith("'", start + 2):
                end = skip_quoted(start, "'")
                tokens.append(Token("literal", text[i:end], line))
                i = end
            else:
                name = _IDENT.match(text, start + 1)
                end = name.end() if name else start + 1
                tokens.append(Token("lifetime", text[i:end], line))
                i = end
        elif text.startswith("r#", i) and _IDENT.match(text, i + 2):
            name = _IDENT.match(text, i + 2)
            tokens.append(Token("ident", name.group(), line))
            i = name.end()
        elif c == "$" and _IDENT.match(text, i + 1):
            # `$crate` and macro variables stay one token.
            name = _IDENT.match(text, i + 1)
            tokens.append(Token("ident", "$" + name.group(), line))
            i = name.end()
        elif name := _IDENT.match(text, i):
            tokens.append(Token("ident", name.group(), line))
            i = name.end()
        elif number := _NUMBER.match(text, i):
            tokens.append(Token("literal", number.group(), line))
            i = number.end()
        elif text.startswith("::", i):
            tokens.append(Token("punct", "::", line))
            i += 2
        else:
            tokens.append(Token("punct", c, line))
            i += 1
    return tokens
