// Markdown bank texts ("textFormat": "markdown"): CommonMark with GitHub tables, strikethrough
// and $math$ / $$math$$, parsed by md4c; raw HTML stays text. Natively md4c is linked into the
// engine (markdown/md4c_reader.cpp). On the web it lives in a module of its own, fetched only when
// a bank asks for Markdown (program/markdown_module.cpp: md4c, the reader below and the encoder),
// which keeps md4c and the tree builder out of every plain bank's download: the app's wasm only
// decodes what the module sends.
#pragma once

#include "engine/rich_text.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imquiz {

// A text as read: its blocks and runs, and what its author must fix (an image without alt text,
// an image that is not a PNG, JPEG, WebP or SVG file beside the bank, a link that is not http(s)
// or mailto), one sentence each, in the order they occur.
struct ParsedMarkdown {
    RichText text;
    std::vector<std::string> problems;
};

// Defined by markdown/md4c_reader.cpp natively (and in the web's module), and by
// program/markdown_web.cpp in the web app, which asks the module through the platform.
ParsedMarkdown read_markdown(std::string_view markdown);

// What a bank's loader keeps of one of its Markdown texts: what its author must fix, the formulas
// it shows (TeX, display or inline) and the image files it shows (sources that can be files beside
// the bank, in order, repeats kept). In a file of its own (markdown_check.cpp): the web's plain
// player, which never shows Markdown, links a stub instead (program/markdown_web.cpp), and with
// it none of the walk over the text.
struct MarkdownUse {
    std::vector<std::string> problems;
    std::vector<std::pair<std::string, bool>> formulas;
    std::vector<std::string> images;
};
MarkdownUse markdown_use(std::string_view markdown);

// The problems of a text already read (read_markdown fills them in with this).
std::vector<std::string> markdown_problems(const RichText& text);

// Why an image's source cannot be a file beside the bank (a URL, an absolute path, not one of
// the four formats by its name), or "" when it can: then it is fetched, or read, relative to
// the bank file.
std::string image_source_problem(const std::string& source);

// How the web's module hands a ParsedMarkdown to the app. Any byte string decodes safely: a
// truncated or garbled one ends early, never reads past its end.
std::string encode_parsed_markdown(const ParsedMarkdown& parsed);
ParsedMarkdown decode_parsed_markdown(std::string_view bytes);

}  // namespace imquiz
