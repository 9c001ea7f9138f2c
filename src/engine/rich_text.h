// A bank text as a reader sees it: blocks (paragraphs, list items, code, tables...) of inline
// runs (plain, emphasised, code, math, links, images). Plain banks have one paragraph per text;
// Markdown banks ("textFormat": "markdown") get theirs from md4c (markdown.h). Every rendering
// (the canvas, the accessibility mirror, the page protocol) lays out this model and nothing else,
// so a bank's text can never become markup: it is data all the way to the glyphs or the DOM nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace imquiz {

struct Inline {
    enum class Kind : std::uint8_t { Text, Code, Math, DisplayMath, Image, LineBreak };
    enum Style : std::uint8_t { Plain = 0, Emphasis = 1, Strong = 2, Strikethrough = 4 };
    Kind kind = Kind::Text;
    std::uint8_t style = Plain;  // Style bits
    std::string text;            // Text, Code: the characters; Math: the TeX; Image: the alt text
    std::string link;            // the link's target when the run is inside one; Image: the source
};

// Syntax colours of a code block, as data: a kind per stretch of the code, never markup. The
// highlighter (engine/code_colours.h) names them; each rendering picks its own colour per kind.
enum class CodeKind : std::uint8_t {
    Keyword, String, Number, Comment, Function, Type, Builtin, Operator, Punctuation, Property, Variable,
    Constant, Count
};
struct CodeSpan {
    std::uint32_t begin = 0;     // bytes into Block::code, on UTF-8 boundaries, ordered, apart
    std::uint32_t length = 0;
    CodeKind kind = CodeKind::Keyword;
};

struct Block {
    enum class Kind : std::uint8_t { Paragraph, Heading, Code, Rule, Table };
    Kind kind = Kind::Paragraph;
    int level = 0;               // Heading: 1..6
    int depth = 0;               // list nesting: 0 outside lists, 1 in a list, 2 in a nested one
    std::string marker;          // the first block of a list item: "•", "3."; "" otherwise
    bool quote = false;          // inside a block quote
    std::string language;        // Code: the fence's language ("python"), may be ""
    std::string code;            // Code: the lines, without the last newline
    std::vector<CodeSpan> spans; // Code: its colours once the highlighter answered; what no span
                                 // covers (and all of it before, or without one) is plain
    std::vector<Inline> inlines; // Paragraph, Heading
    // Table: rows of cells of runs; the first `header_rows` rows are the header. `align` per
    // column: 'l', 'c', 'r' or 0 (as the author wrote, or not).
    std::vector<std::vector<std::vector<Inline>>> rows;
    std::size_t header_rows = 0;
    std::string align;
};

struct RichText {
    std::vector<Block> blocks;
};

// One paragraph of one plain run: how a text of a plain bank reads.
RichText plain_rich_text(std::string text);
// The words alone, for what takes no markup (document titles, accessible names, announcements,
// host events): blocks separated by a blank line, images by their alt text, math by its TeX.
std::string plain_text(const RichText& text);
// The formulas of a text ($...$ and $$...$$ runs), in reading order, table cells included.
std::vector<const Inline*> math_runs(const RichText& text);
// The sources of the text's images, in order (repeats included).
std::vector<std::string> image_sources(const RichText& text);
// True when the text is nothing but plain words (one paragraph, unstyled runs, no links).
bool is_plain(const RichText& text);

}  // namespace imquiz
