// Moodle XML -> bank. The file is read by libxml2 (Debian's libxml2-dev), the HTML of its texts by
// libxml2's HTML parser; what this file adds is the meaning of Moodle's elements, written from
// Moodle's documentation ("Moodle XML format") and the shape of its own test fixtures. What we
// read, what we skip and how HTML becomes Markdown is listed in docs/authoring.md.
//
// Native builds only (quizc, the unit tests, the fuzzers): the web build has no libxml2 and no
// need of it (src/engine/CMakeLists.txt leaves this file out there).
#include "engine/import/import.h"

#include "engine/image_file.h"
#include "engine/import/support.h"
#include "engine/session.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace imquiz {
namespace {

using namespace import_support;

struct DocumentDeleter {
    void operator()(xmlDoc* document) const { xmlFreeDoc(document); }
};
using Document = std::unique_ptr<xmlDoc, DocumentDeleter>;

bool is_element(const xmlNode* node, const char* name) {
    return node != nullptr && node->type == XML_ELEMENT_NODE &&
           std::strcmp(reinterpret_cast<const char*>(node->name), name) == 0;
}

std::string_view name_of(const xmlNode* node) {
    return reinterpret_cast<const char*>(node->name);
}

const xmlNode* child(const xmlNode* parent, const char* name) {
    if (parent == nullptr)
        return nullptr;
    for (const xmlNode* node = parent->children; node != nullptr; node = node->next)
        if (is_element(node, name))
            return node;
    return nullptr;
}

std::vector<const xmlNode*> children(const xmlNode* parent, const char* name) {
    std::vector<const xmlNode*> found;
    if (parent != nullptr)
        for (const xmlNode* node = parent->children; node != nullptr; node = node->next)
            if (is_element(node, name))
                found.push_back(node);
    return found;
}

// Owns what libxml2 hands out with xmlMalloc.
std::string take(xmlChar* text) {
    if (text == nullptr)
        return {};
    std::string result(reinterpret_cast<const char*>(text));
    xmlFree(text);
    return result;
}

std::string attribute(const xmlNode* node, const char* name) {
    return node == nullptr ? std::string()
                           : take(xmlGetProp(node, reinterpret_cast<const xmlChar*>(name)));
}

// Every text and CDATA inside the node, entities resolved (the file has no DTD to define others).
std::string content(const xmlNode* node) {
    return node == nullptr ? std::string() : take(xmlNodeGetContent(node));
}

// <name><text>...</text></name> -> "...", trimmed.
std::string child_text(const xmlNode* parent, const char* name) {
    return std::string(trim(content(child(child(parent, name), "text"))));
}

bool is_true(std::string_view text) {
    text = trim(text);
    return text == "1" || text == "true";
}

std::string collapse_spaces(std::string_view text) {
    std::string result;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            space = true;
            continue;
        }
        if (space && !result.empty())
            result += ' ';
        space = false;
        result += c;
    }
    return result;
}

std::optional<std::string> decode_base64(std::string_view text) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::string bytes;
    bytes.reserve(text.size() / 4 * 3);
    unsigned bits = 0;
    int count = 0;
    bool padding = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            padding = true;
            continue;
        }
        const int v = value(c);
        if (v < 0 || padding)
            return std::nullopt;
        bits = (bits << 6) | static_cast<unsigned>(v);
        if (++count == 4) {
            bytes += static_cast<char>((bits >> 16) & 0xFF);
            bytes += static_cast<char>((bits >> 8) & 0xFF);
            bytes += static_cast<char>(bits & 0xFF);
            bits = 0;
            count = 0;
        }
    }
    if (count == 1)
        return std::nullopt;
    if (count == 2)
        bytes += static_cast<char>((bits >> 4) & 0xFF);
    if (count == 3) {
        bytes += static_cast<char>((bits >> 10) & 0xFF);
        bytes += static_cast<char>((bits >> 2) & 0xFF);
    }
    return bytes;
}

std::string percent_decoded(std::string_view text) {
    std::string result;
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            result += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
            continue;
        }
        result += text[i];
    }
    return result;
}

// A file name that is safe in any folder of any system: letters, digits, '.', '-' and '_' kept,
// anything else '-', the extension lowercased.
std::string safe_file_name(std::string_view name) {
    std::string result;
    for (char c : name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        result += keep ? c : '-';
    }
    while (!result.empty() && result.front() == '.')
        result.erase(result.begin());
    const std::size_t dot = result.rfind('.');
    if (dot != std::string::npos)
        for (std::size_t i = dot; i < result.size(); ++i)
            if (result[i] >= 'A' && result[i] <= 'Z')
                result[i] = static_cast<char>(result[i] - 'A' + 'a');
    if (result.size() > 100)
        result = result.substr(result.size() - 100);
    return result.empty() || result.front() == '.' ? "image" + result : result;
}

// The longest run of backticks in `code`: a fence around it must be longer.
std::size_t longest_backtick_run(std::string_view code) {
    std::size_t longest = 0, run = 0;
    for (char c : code) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

// Backticks around inline code: one more than the longest run inside it.
std::string code_span(std::string_view code) {
    const std::string fence(longest_backtick_run(code) + 1, '`');
    const bool pad = !code.empty() && (code.front() == '`' || code.back() == '`');
    return fence + (pad ? " " : "") + std::string(code) + (pad ? " " : "") + fence;
}

// '\x01' stands for a line break (<br>) until a paragraph is finished, so that collapsing the
// paragraph's spaces cannot remove it.
constexpr char line_break_mark = '\x01';

// One HTML text as Markdown (or as plain text, for a bank where no text needs Markdown).
class HtmlText {
public:
    struct Image {
        std::string source;   // @@PLUGINFILE@@/name.png as written
        std::string alt;
    };
    // Turns an <img> into the Markdown path of its file ("images/x.png"), or "" when it cannot
    // be shown (already reported).
    using ImageResolver = std::function<std::string(const Image&)>;
    using Warn = std::function<void(std::string)>;

    HtmlText(bool markdown, ImageResolver images, Warn warn)
        : markdown_(markdown), images_(std::move(images)), warn_(std::move(warn)) {}

    std::string convert(const xmlNode* body) { return join_blocks(blocks(body), "\n\n"); }
    bool needs_markdown() const { return needs_markdown_; }

private:
    static bool is_block(std::string_view name) {
        static const std::set<std::string_view> names = {
            "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "table",
            "blockquote", "hr", "figure", "section", "article", "header", "footer", "dl", "dt",
            "dd", "center", "address"};
        return names.count(name) != 0;
    }
    static bool is_skipped(std::string_view name) {
        return name == "script" || name == "style" || name == "head" || name == "title" ||
               name == "noscript" || name == "template";
    }

    static std::string join_blocks(const std::vector<std::string>& blocks, const char* separator) {
        std::string joined;
        for (const std::string& block : blocks)
            if (!block.empty())
                joined += (joined.empty() ? "" : separator) + block;
        return joined;
    }

    // The paragraph collected so far, its spaces collapsed and its line breaks made real.
    std::string finish_paragraph(const std::string& inline_text) const {
        std::string text = collapse_spaces(inline_text);
        std::string result;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] != line_break_mark) {
                result += text[i];
                continue;
            }
            while (!result.empty() && result.back() == ' ')
                result.pop_back();
            while (i + 1 < text.size() && text[i + 1] == ' ')
                ++i;
            if (!result.empty() && i + 1 < text.size() && text[i + 1] != line_break_mark)
                result += markdown_ ? "\\\n" : "\n";
        }
        return result;
    }

    std::vector<std::string> blocks(const xmlNode* parent) {
        const Deeper deeper(depth_);
        std::vector<std::string> result;
        if (depth_ > max_depth) {
            std::string words;
            text(content(parent), words);
            result.push_back(finish_paragraph(words));
            return result;
        }
        std::string paragraph;
        auto flush = [&] {
            result.push_back(finish_paragraph(paragraph));
            paragraph.clear();
        };
        for (const xmlNode* node = parent == nullptr ? nullptr : parent->children; node != nullptr;
             node = node->next) {
            if (node->type != XML_ELEMENT_NODE || !is_block(name_of(node))) {
                inline_node(node, paragraph);
                continue;
            }
            flush();
            block_node(node, result);
        }
        flush();
        return result;
    }

    void block_node(const xmlNode* node, std::vector<std::string>& out) {
        const std::string_view name = name_of(node);
        if (name == "hr")
            return;
        if (name == "ul" || name == "ol") {
            out.push_back(list(node, name == "ol"));
            return;
        }
        if (name == "pre") {
            out.push_back(preformatted(node));
            return;
        }
        if (name == "table") {
            out.push_back(table(node));
            return;
        }
        for (std::string& block : blocks(node))
            out.push_back(std::move(block));
    }

    std::string list(const xmlNode* node, bool numbered) {
        needs_markdown_ = true;
        std::string result;
        int number = 1;
        if (numbered) {
            const std::string start = attribute(node, "start");
            if (auto value = parse_number(start); value && *value >= 0 && *value < 1e9)
                number = static_cast<int>(*value);
        }
        for (const xmlNode* item = node->children; item != nullptr; item = item->next) {
            if (item->type != XML_ELEMENT_NODE)
                continue;
            const std::string marker =
                !markdown_ ? (numbered ? std::to_string(number) + ". " : "• ")
                           : (numbered ? std::to_string(number) + ". " : "- ");
            ++number;
            // An item's paragraphs and nested lists, one per line under its marker.
            const std::string body = join_blocks(blocks(item), "\n");
            const std::string indent(marker.size(), ' ');
            std::string lines = marker;
            for (char c : body) {
                lines += c;
                if (c == '\n')
                    lines += indent;
            }
            result += (result.empty() ? "" : "\n") + lines;
        }
        return result;
    }

    std::string preformatted(const xmlNode* node) {
        needs_markdown_ = true;
        std::string code = content(node);
        while (!code.empty() && (code.back() == '\n' || code.back() == '\r'))
            code.pop_back();
        if (!code.empty() && code.front() == '\n')
            code.erase(code.begin());
        if (!markdown_)
            return code;
        std::string language;
        for (const xmlNode* holder : {node, child(node, "code")}) {
            const std::string classes = attribute(holder, "class");
            for (const char* prefix : {"language-", "lang-"}) {
                const std::size_t at = classes.find(prefix);
                if (at == std::string::npos || !language.empty())
                    continue;
                std::size_t end = at + std::strlen(prefix);
                while (end < classes.size() && classes[end] != ' ')
                    ++end;
                language = classes.substr(at + std::strlen(prefix), end - at - std::strlen(prefix));
            }
        }
        const std::string fence(std::max<std::size_t>(3, longest_backtick_run(code) + 1), '`');
        return fence + safe_language(language) + "\n" + code + "\n" + fence;
    }

    static std::string safe_language(const std::string& language) {
        std::string result;
        for (char c : language)
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '+' || c == '-' || c == '#')
                result += c;
        return result;
    }

    std::string table(const xmlNode* node) {
        needs_markdown_ = true;
        std::vector<std::vector<std::string>> rows;
        std::function<void(const xmlNode*)> collect = [&](const xmlNode* parent) {
            for (const xmlNode* row = parent->children; row != nullptr; row = row->next) {
                if (is_element(row, "thead") || is_element(row, "tbody") || is_element(row, "tfoot")) {
                    collect(row);
                    continue;
                }
                if (!is_element(row, "tr"))
                    continue;
                std::vector<std::string> cells;
                for (const xmlNode* cell = row->children; cell != nullptr; cell = cell->next) {
                    if (!is_element(cell, "td") && !is_element(cell, "th"))
                        continue;
                    std::string text;
                    for (const xmlNode* part = cell->children; part != nullptr; part = part->next)
                        inline_node(part, text);
                    std::string finished = finish_paragraph(text);
                    std::replace(finished.begin(), finished.end(), '\n', ' ');
                    cells.push_back(std::move(finished));
                }
                rows.push_back(std::move(cells));
            }
        };
        collect(node);
        std::size_t columns = 0;
        for (const auto& row : rows)
            columns = std::max(columns, row.size());
        if (rows.empty() || columns == 0)
            return {};
        std::string result;
        auto line = [&](const std::vector<std::string>& cells) {
            std::string text = markdown_ ? "|" : "";
            for (std::size_t i = 0; i < columns; ++i) {
                const std::string cell = i < cells.size() ? cells[i] : std::string();
                if (markdown_)
                    text += " " + (cell.empty() ? std::string() : cell) + " |";
                else
                    text += (i == 0 ? "" : " | ") + cell;
            }
            return text;
        };
        for (std::size_t r = 0; r < rows.size(); ++r) {
            result += (result.empty() ? "" : "\n") + line(rows[r]);
            if (r == 0 && markdown_) {
                result += "\n|";
                for (std::size_t i = 0; i < columns; ++i)
                    result += " --- |";
            }
        }
        return result;
    }

    // Emphasis around `inner`, the spaces at its ends moved outside (Markdown takes "** x**" as
    // text).
    void wrap(const std::string& inner, const char* mark, std::string& out) {
        const std::string collapsed = collapse_spaces(inner);
        if (collapsed.empty() || collapsed.find_first_not_of(line_break_mark) == std::string::npos) {
            out += inner;
            return;
        }
        needs_markdown_ = true;
        const bool space_before = !inner.empty() && std::isspace(static_cast<unsigned char>(inner.front()));
        const bool space_after = !inner.empty() && std::isspace(static_cast<unsigned char>(inner.back()));
        out += std::string(space_before ? " " : "") + (markdown_ ? mark : "") + collapsed +
               (markdown_ ? mark : "") + (space_after ? " " : "");
    }

    void inline_children(const xmlNode* node, std::string& out) {
        for (const xmlNode* part = node->children; part != nullptr; part = part->next)
            inline_node(part, out);
    }

    void inline_node(const xmlNode* node, std::string& out) {
        const Deeper deeper(depth_);
        if (depth_ > max_depth && node->type == XML_ELEMENT_NODE) {
            text(content(node), out);   // deeper than any real text: its words only
            return;
        }
        if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
            text(reinterpret_cast<const char*>(node->content), out);
            return;
        }
        if (node->type != XML_ELEMENT_NODE)
            return;
        const std::string_view name = name_of(node);
        if (is_skipped(name))
            return;
        if (name == "br") {
            out += line_break_mark;
            return;
        }
        if (name == "strong" || name == "b" || name == "em" || name == "i") {
            std::string inner;
            inline_children(node, inner);
            wrap(inner, name == "strong" || name == "b" ? "**" : "*", out);
            return;
        }
        // Moodle's older editors write emphasis as styled spans.
        if (name == "span") {
            std::string style = attribute(node, "style");
            style.erase(std::remove(style.begin(), style.end(), ' '), style.end());
            const bool bold = style.find("font-weight:bold") != std::string::npos;
            const bool italic = style.find("font-style:italic") != std::string::npos;
            if (bold || italic) {
                std::string inner;
                inline_children(node, inner);
                wrap(inner, bold && italic ? "***" : bold ? "**" : "*", out);
                return;
            }
        }
        if (name == "code" || name == "kbd" || name == "samp" || name == "tt") {
            const std::string code = collapse_spaces(content(node));
            if (code.empty())
                return;
            needs_markdown_ = true;
            out += markdown_ ? code_span(code) : code;
            return;
        }
        if (name == "a") {
            link(node, out);
            return;
        }
        if (name == "img") {
            image(node, out);
            return;
        }
        inline_children(node, out);   // span, sub, sup, u, font... and blocks inside inlines
    }

    void link(const xmlNode* node, std::string& out) {
        std::string inner;
        inline_children(node, inner);
        const std::string href(trim(attribute(node, "href")));
        const bool web = href.rfind("https://", 0) == 0 || href.rfind("http://", 0) == 0;
        if (!web) {
            if (!href.empty())
                warn_("the link to " + in_quotes(href.substr(0, 80)) +
                      " is kept as its text only: a bank links to http(s) addresses");
            out += inner;
            return;
        }
        needs_markdown_ = true;
        std::string label = collapse_spaces(inner);
        if (label.empty())
            label = markdown_ ? escape_markdown(href) : href;
        if (!markdown_) {
            out += label == href ? href : label + " (" + href + ")";
            return;
        }
        std::string url;
        for (char c : href) {
            if (c == ' ' || c == '(' || c == ')' || c == '<' || c == '>' || c == '\\') {
                static const char digits[] = "0123456789ABCDEF";
                url += '%';
                url += digits[(static_cast<unsigned char>(c) >> 4) & 0xF];
                url += digits[static_cast<unsigned char>(c) & 0xF];
            } else {
                url += c;
            }
        }
        out += "[" + label + "](" + url + ")";
    }

    void image(const xmlNode* node, std::string& out) {
        Image image{std::string(trim(attribute(node, "src"))),
                    collapse_spaces(attribute(node, "alt"))};
        const std::string path = images_(image);
        if (path.empty()) {
            if (!image.alt.empty())
                out += markdown_ ? escape_markdown(image.alt) : image.alt;
            return;
        }
        needs_markdown_ = true;
        if (markdown_)
            out += "![" + escape_markdown(image.alt) + "](" + path + ")";
        else
            out += image.alt;
    }

    // A text node: escaped for Markdown, with the TeX that Moodle's MathJax filter reads (\(..\),
    // \[..\], $$..$$) turned into our math ($..$, $$..$$) and left as written. As plain text
    // (the first reading), only whether there is math counts.
    void text(std::string_view text, std::string& out) {
        const auto plain = [&](std::string_view part) {
            const std::string collapsed = collapse_spaces_keeping_ends(part);
            out += markdown_ ? escape_markdown(collapsed) : collapsed;
        };
        std::size_t i = 0;
        while (i < text.size()) {
            std::size_t open = std::string_view::npos;
            std::string_view opener, closer;
            for (auto [o, c] : {std::pair<std::string_view, std::string_view>{"\\(", "\\)"},
                                {"\\[", "\\]"},
                                {"$$", "$$"}}) {
                const std::size_t at = text.find(o, i);
                if (at < open) {
                    open = at;
                    opener = o;
                    closer = c;
                }
            }
            const std::size_t close = open == std::string_view::npos
                                          ? std::string_view::npos
                                          : text.find(closer, open + opener.size());
            if (close == std::string_view::npos) {
                plain(text.substr(i));
                return;
            }
            plain(text.substr(i, open - i));
            const std::string tex = collapse_spaces(text.substr(open + opener.size(),
                                                                close - open - opener.size()));
            if (!tex.empty()) {
                needs_markdown_ = true;
                const bool display = opener != "\\(";
                out += display ? "$$" + tex + "$$" : "$" + tex + "$";
            }
            i = close + closer.size();
        }
    }

    // Spaces collapsed, but one kept at either end when there was any (it separates this text from
    // its neighbours).
    static std::string collapse_spaces_keeping_ends(std::string_view text) {
        if (text.empty())
            return {};
        std::string collapsed = collapse_spaces(text);
        const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
        if (space(text.front()))
            collapsed.insert(collapsed.begin(), ' ');
        if (space(text.back()) && !collapsed.empty() && collapsed != " ")
            collapsed += ' ';
        return collapsed;
    }

    // The walk is recursive: a hostile text of 100,000 nested elements must not exhaust the
    // stack. Past this depth a subtree is read as its words.
    static constexpr int max_depth = 64;
    struct Deeper {
        explicit Deeper(int& depth) : depth_(depth) { ++depth_; }
        ~Deeper() { --depth_; }
        int& depth_;
    };

    bool markdown_;
    ImageResolver images_;
    Warn warn_;
    bool needs_markdown_ = false;
    int depth_ = 0;
};

// An embedded answer of Moodle's cloze text (qtype_multianswer): "{2:MULTICHOICE:=a#Yes~b}".
struct EmbeddedAnswer {
    std::size_t begin = 0, end = 0;   // of the whole "{...}" in the text
    std::string weight;               // the digits before the first ':' ("" is 1)
    std::string type;                 // "SHORTANSWER", "MC"...
    std::string_view body;            // the answers, between the second ':' and the '}'
};

// One of an embedded answer's answers: "=a#feedback", "%50%a", "a".
struct EmbeddedAlternative {
    double fraction = 0;              // percent: "=" is 100, none 0
    std::string text;                 // as written (HTML), \} \# \~ resolved
    std::string feedback;
};

bool escaped_at(std::string_view text, std::size_t at) {
    return at > 0 && text[at - 1] == '\\';
}

// \} \# \~ as the character; Moodle's answers escape these three.
std::string unescape_embedded(std::string_view text) {
    std::string result;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && std::strchr("}#~", text[i + 1]) != nullptr)
            continue;
        result += text[i];
    }
    return result;
}

// The first embedded answer at or after `from`: "{", a weight, ":", a type Moodle knows, ":", at
// least one character of answers, and the first "}" without a backslash before it.
std::optional<EmbeddedAnswer> find_embedded_answer(std::string_view text, std::size_t from) {
    static const std::set<std::string_view> types = {
        "NUMERICAL", "NM", "SHORTANSWER", "SA", "MW", "SHORTANSWER_C", "SAC", "MWC",
        "MULTICHOICE", "MC", "MULTICHOICE_V", "MCV", "MULTICHOICE_H", "MCH", "MULTICHOICE_S", "MCS",
        "MULTICHOICE_VS", "MCVS", "MULTICHOICE_HS", "MCHS", "MULTIRESPONSE", "MR",
        "MULTIRESPONSE_H", "MRH", "MULTIRESPONSE_S", "MRS", "MULTIRESPONSE_HS", "MRHS"};
    for (std::size_t open = text.find('{', from); open != std::string_view::npos;
         open = text.find('{', open + 1)) {
        std::size_t i = open + 1;
        while (i < text.size() && i - open <= 9 && text[i] >= '0' && text[i] <= '9')
            ++i;
        if (i >= text.size() || text[i] != ':')
            continue;
        const std::size_t type_begin = ++i;
        while (i < text.size() && i - type_begin <= 16 && ((text[i] >= 'A' && text[i] <= 'Z') || text[i] == '_'))
            ++i;
        if (i >= text.size() || text[i] != ':' || types.count(text.substr(type_begin, i - type_begin)) == 0)
            continue;
        const std::size_t body = i + 1;
        std::size_t close = text.find('}', body);
        while (close != std::string_view::npos && escaped_at(text, close))
            close = text.find('}', close + 1);
        if (close == std::string_view::npos)
            return std::nullopt;   // nor for any later "{": a hostile text must not cost n² steps
        if (close == body)
            continue;
        return EmbeddedAnswer{open, close + 1, std::string(text.substr(open + 1, type_begin - open - 2)),
                              std::string(text.substr(type_begin, i - type_begin)),
                              text.substr(body, close - body)};
    }
    return std::nullopt;
}

// The answers of an embedded answer, split at each "~" and "#" without a backslash before it (a
// "#" after "&" is an entity's).
std::vector<EmbeddedAlternative> embedded_alternatives(std::string_view body) {
    std::vector<EmbeddedAlternative> alternatives;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t end = body.find('~', start);
        while (end != std::string_view::npos && escaped_at(body, end))
            end = body.find('~', end + 1);
        if (end == std::string_view::npos)
            end = body.size();
        std::string_view part = body.substr(start, end - start);
        start = end + 1;
        EmbeddedAlternative alternative;
        if (!part.empty() && part.front() == '=') {
            alternative.fraction = 100;
            part.remove_prefix(1);
        } else if (!part.empty() && part.front() == '%') {
            const std::size_t close = part.find('%', 1);
            const auto value = close == std::string_view::npos ? std::nullopt
                                                               : parse_number(part.substr(1, close - 1));
            if (value) {
                alternative.fraction = *value;
                part.remove_prefix(close + 1);
            }
        }
        std::size_t hash = part.find('#');
        while (hash != std::string_view::npos &&
               (escaped_at(part, hash) || (hash > 0 && part[hash - 1] == '&') ||
                (hash >= 5 && part.substr(hash - 5, 5) == "&amp;")))
            hash = part.find('#', hash + 1);
        alternative.text = unescape_embedded(part.substr(0, hash));
        if (hash != std::string_view::npos)
            alternative.feedback = unescape_embedded(part.substr(hash + 1));
        if (!is_blank(part))
            alternatives.push_back(std::move(alternative));
    }
    return alternatives;
}

// A parse error of libxml2, kept until it can be reported with the file's positions.
struct XmlError {
    bool set = false;
    int line = 0, column = 0;
    std::string message;
    bool doctype = false;
};

void keep_first_error(void* data, xmlErrorPtr error) {
    auto* context = static_cast<xmlParserCtxt*>(data);
    auto* kept = static_cast<XmlError*>(context->_private);
    if (kept == nullptr || kept->set || error == nullptr || error->level < XML_ERR_ERROR)
        return;
    kept->set = true;
    kept->line = error->line;
    kept->column = error->int2;
    kept->message = std::string(trim(error->message == nullptr ? "" : error->message));
}

// A DOCTYPE could declare entities that expand a small file into gigabytes: Moodle never writes
// one, so the parse stops at it.
void refuse_doctype(void* data, const xmlChar*, const xmlChar*, const xmlChar*) {
    auto* context = static_cast<xmlParserCtxt*>(data);
    auto* kept = static_cast<XmlError*>(context->_private);
    if (kept != nullptr && !kept->set) {
        kept->set = true;
        kept->doctype = true;
        kept->line = context->input == nullptr ? 0 : context->input->line;
        kept->column = 1;
        kept->message = "the file has a DOCTYPE: a Moodle XML file has none, and its entities are not read";
    }
    xmlStopParser(context);
}

void ignore_error(void*, xmlErrorPtr) {}

// The bank loader's bound on maxTries (bank_loader.cpp).
constexpr std::size_t most_tries = 10;
// Moodle writes its default penalty, a third, with seven decimals ("0.3333333", as
// export_moodle_xml.cpp does): within this of a third it is the bank's default tryPenalty.
constexpr double moodle_third_rounding = 5e-8;

class MoodleXmlImporter {
public:
    MoodleXmlImporter(std::string_view file_name, const ImportOptions& options, bool markdown,
                      std::vector<Diagnostic>& diagnostics)
        : options_(options), markdown_(markdown),
          report_(file_name, LoadLimits{}.max_diagnostics, diagnostics) {}

    bool check_input(std::string_view& text) {
        return import_support::check_input(text, "file", report_);
    }

    // The document, or none after reporting why.
    Document parse(const Source& source) {
        source_ = &source;
        xmlParserCtxt* context = xmlNewParserCtxt();
        if (context == nullptr) {
            report_.error_at({}, "out of memory reading the XML");
            return nullptr;
        }
        XmlError error;
        context->_private = &error;
        context->sax->serror = keep_first_error;
        context->sax->internalSubset = refuse_doctype;
        xmlDoc* document = xmlCtxtReadMemory(
            context, source.text().data(), static_cast<int>(source.text().size()), nullptr, "UTF-8",
            XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES | XML_PARSE_NOERROR |
                XML_PARSE_NOWARNING);
        const bool well_formed = context->wellFormed != 0;
        xmlFreeParserCtxt(context);
        Document owned(document);
        if (error.set || !well_formed || owned == nullptr) {
            const SourcePosition where{std::max(error.line, 1), std::max(error.column, 1)};
            report_.error_at(where, error.doctype ? error.message
                                                  : "not well-formed XML: " +
                                                        (error.message.empty() ? std::string("unreadable")
                                                                               : error.message));
            return nullptr;
        }
        const xmlNode* root = xmlDocGetRootElement(owned.get());
        if (!is_element(root, "quiz")) {
            report_.error_at(position(root), "not a Moodle XML file: the root element is <" +
                                                 std::string(root == nullptr ? "" : name_of(root)) +
                                                 ">, expected <quiz>");
            return nullptr;
        }
        return owned;
    }

    // For a second reading of a document parse() gave.
    void use_source(const Source& source) { source_ = &source; }

    Bank read(const xmlDoc& document) {
        start_bank(options_, report_.file(), "", bank_, report_);
        bank_.text_format = markdown_ ? TextFormat::Markdown : TextFormat::Plain;
        const xmlNode* root = xmlDocGetRootElement(&document);
        for (const xmlNode* node = root->children; node != nullptr && !report_.full(); node = node->next) {
            if (!is_element(node, "question"))
                continue;
            if (bank_.questions.size() >= max_questions()) {
                report_.error_at(position(node), "too many questions: the limit is " +
                                                     std::to_string(max_questions()));
                break;
            }
            read_question(node);
        }
        bank_.settings.partial_credit = partial_credit_;
        bank_.settings.shuffle_choices = shuffle_;
        return std::move(bank_);
    }

    const SourceMap& map() const { return map_; }
    bool any_markdown() const { return any_markdown_; }
    std::vector<ImportedFile> take_files() { return std::move(files_); }

private:
    // The first non-blank character of the element's line: libxml2 gives lines, not columns.
    SourcePosition position(const xmlNode* node) const {
        const long line = node == nullptr ? 0 : xmlGetLineNo(node);
        const auto& lines = source_->lines();
        if (line < 1 || static_cast<std::size_t>(line) > lines.size())
            return {1, 1};
        return source_->start_of(lines[static_cast<std::size_t>(line) - 1]);
    }

    void read_question(const xmlNode* node) {
        const std::string type = attribute(node, "type");
        const SourcePosition where = position(node);
        if (type == "category") {
            category_tag_ = gift_category_tag(child_text(node, "category"));
            return;
        }
        const std::string name = collapse_spaces(child_text(node, "name"));
        const std::string named = name.empty() ? std::string("without a name") : in_quotes(name);
        static const std::set<std::string> unsupported = {
            "essay", "calculated", "calculatedsimple", "calculatedmulti", "ddimageortext",
            "ddmarker", "randomsamatch", "random"};
        if (type == "description") {
            report_.warning_at(where, "description " + named +
                                          " (text without a question) is not supported: skipped");
            return;
        }
        if (unsupported.count(type) != 0) {
            report_.warning_at(where, type + " question " + named + " is not supported: skipped");
            return;
        }
        using Reader = bool (MoodleXmlImporter::*)(const xmlNode*, Question&, QuestionSource&);
        static const std::map<std::string, Reader> readers = {
            {"multichoice", &MoodleXmlImporter::read_multichoice},
            {"truefalse", &MoodleXmlImporter::read_truefalse},
            {"shortanswer", &MoodleXmlImporter::read_shortanswer},
            {"numerical", &MoodleXmlImporter::read_numerical},
            {"matching", &MoodleXmlImporter::read_matching},
            {"ordering", &MoodleXmlImporter::read_ordering},
            // Moodle's export writes its embedded-answers questions as "cloze" (qtype_multianswer).
            {"cloze", &MoodleXmlImporter::read_multianswer},
            {"multianswer", &MoodleXmlImporter::read_multianswer},
            {"gapselect", &MoodleXmlImporter::read_gaps},
            {"ddwtos", &MoodleXmlImporter::read_gaps}};
        const auto reader = readers.find(type);
        if (reader == readers.end()) {
            report_.warning_at(where, "unknown question type " + in_quotes(type) + " (question " +
                                          named + "): skipped");
            return;
        }

        Question question;
        QuestionSource source;
        source.question = where;
        answer_feedbacks_.clear();
        question_name_ = named;
        // A cloze question's text is read by its reader: its blanks are written in it first.
        const bool cloze = type == "cloze" || type == "multianswer" || type == "gapselect" || type == "ddwtos";
        const std::string prompt = cloze ? content(child(child(node, "questiontext"), "text"))
                                         : read_text(child(node, "questiontext"), "html");
        if (is_blank(prompt)) {
            report_.error_at(where, "the question text of " + named + " is empty");
            return;
        }
        question.prompt = text_in(options_.language, prompt);
        general_feedback_ = read_text(child(node, "generalfeedback"), "html");
        if (!(this->*reader->second)(node, question, source))
            return;
        if (set_explanation(question, options_.language, general_feedback_, answer_feedbacks_,
                            markdown_ ? "\n\n" : " "))
            report_.warning_at(where, "the answer feedback of " + type + " question " + named +
                                          " is dropped: the bank keeps its general feedback, as "
                                          "the explanation");
        read_hints(node, question);
        question.id = take_question_id(question_ids_, name, bank_.questions.size() + 1);
        if (!category_tag_.empty())
            question.tags.push_back(category_tag_);
        for (const xmlNode* tag : children(child(node, "tags"), "tag")) {
            const std::string written = collapse_spaces(content(child(tag, "text")));
            if (!written.empty() &&
                std::find(question.tags.begin(), question.tags.end(), written) == question.tags.end())
                question.tags.push_back(written);
        }
        bank_.questions.push_back(std::move(question));
        map_.questions.push_back(std::move(source));
    }

    // Moodle's hints, in the order written, read as the question's other texts are. Its
    // interactive behaviour shows one after each try that is not right, so it gives a question one
    // try per hint plus one and takes <penalty> off for each try after the first; a hint costs
    // nothing of its own. Without hints Moodle's tries (and its penalty) do not apply here.
    void read_hints(const xmlNode* node, Question& question) {
        const std::vector<const xmlNode*> hints = children(node, "hint");
        for (std::size_t i = 0; i < hints.size(); ++i) {
            const xmlNode* hint = hints[i];
            const std::string number = std::to_string(i + 1);   // as Moodle's form numbers them
            std::vector<std::string> options;
            for (const char* option : {"shownumcorrect", "clearwrong"})
                if (child(hint, option) != nullptr)
                    options.push_back(std::string("<") + option + "/>");
            if (!is_blank(content(child(hint, "options"))))
                options.push_back("<options>");
            std::string listed;
            for (const std::string& option : options)
                listed += (listed.empty() ? "" : " and ") + option;
            if (!options.empty())
                report_.warning_at(position(hint), "hint " + number + ": " + listed +
                                                       (options.size() == 1 ? " is" : " are") +
                                                       " not kept: a bank's hint is its text only");
            const std::string text = read_text(hint, "html");
            if (is_blank(text)) {
                report_.warning_at(position(hint), "hint " + number + " is empty: it is left out");
                continue;
            }
            question.hints.push_back({text_in(options_.language, text), 0});
        }
        if (question.hints.empty())
            return;
        const std::size_t tries = question.hints.size() + 1;
        if (tries > most_tries)
            report_.warning_at(position(node), "Moodle gives the question " + std::to_string(tries) +
                                                   " tries (one per hint plus one): a bank's question "
                                                   "takes at most " + std::to_string(most_tries));
        question.max_tries = static_cast<int>(std::min(tries, most_tries));
        const xmlNode* penalty_element = child(node, "penalty");
        const std::string written = collapse_spaces(content(penalty_element));
        if (written.empty())
            return;
        const auto penalty = parse_number(written);
        if (!penalty || !(*penalty >= 0 && *penalty <= 1)) {
            report_.warning_at(position(penalty_element),
                               "the penalty " + in_quotes(written.substr(0, 40)) +
                                   " is not a share of the question's points from 0 to 1: the "
                                   "bank's tryPenalty applies");
            return;
        }
        if (std::abs(*penalty - 1.0 / 3.0) >= moodle_third_rounding)
            question.try_penalty = *penalty;
    }

    // An answer's fraction: Moodle writes percentages ("100", "33.33333", "-50").
    static double fraction_of(const xmlNode* answer) {
        return parse_number(attribute(answer, "fraction")).value_or(0);
    }
    static bool is_full(double fraction) { return fraction >= 99.9999; }

    void keep_answer_feedback(const xmlNode* answer) {
        std::string feedback = read_text(child(answer, "feedback"), "html");
        if (!feedback.empty())
            answer_feedbacks_.push_back(std::move(feedback));
    }

    bool read_multichoice(const xmlNode* node, Question& question, QuestionSource& where) {
        const std::string single_written = content(child(node, "single"));
        const bool single = single_written.empty() || is_true(single_written);
        if (is_true(content(child(node, "shuffleanswers"))))
            shuffle_ = true;
        const std::vector<const xmlNode*> answers = children(node, "answer");
        if (!within_limit(answers, "answers"))
            return false;
        bool valid = true;
        std::vector<double> positive;
        for (const xmlNode* answer : answers) {
            const double fraction = fraction_of(answer);
            Choice choice;
            const std::string text = read_text(answer, "html");
            if (is_blank(text)) {
                report_.error_at(position(answer), "the answer text is empty");
                valid = false;
                continue;
            }
            choice.text = text_in(options_.language, text);
            if (single) {
                choice.correct = is_full(fraction) &&
                                 std::none_of(question.choices.begin(), question.choices.end(),
                                              [](const Choice& c) { return c.correct; });
                if (fraction > 0 && !choice.correct)
                    report_.warning_at(position(answer),
                                       "this answer's fraction " + format(fraction) +
                                           "% counts as wrong: a single choice question has one "
                                           "right answer");
            } else {
                choice.correct = fraction > 0;
                if (choice.correct)
                    positive.push_back(fraction);
            }
            const std::string feedback = read_text(child(answer, "feedback"), "html");
            if (!feedback.empty())
                choice.feedback = text_in(options_.language, feedback);
            question.choices.push_back(std::move(choice));
            where.choices.push_back(position(answer));
        }
        if (!valid)
            return false;
        const bool any_right = std::any_of(question.choices.begin(), question.choices.end(),
                                           [](const Choice& c) { return c.correct; });
        if (!any_right) {
            report_.error_at(where.question,
                             single ? "no answer has the fraction 100: a single choice question "
                                      "needs one right answer"
                                    : "no answer has a fraction above 0: the question has no "
                                      "right answer");
            return false;
        }
        question.type = single ? QuestionType::SingleChoice : QuestionType::MultipleChoice;
        if (!single) {
            partial_credit_ = true;
            if (std::any_of(positive.begin(), positive.end(),
                            [&](double f) { return std::abs(f - positive.front()) > 0.01; }))
                report_.warning_at(where.question,
                                   "the right answers have different fractions: ImQuiz's partial "
                                   "credit counts every right answer the same (docs/authoring.md)");
        }
        assign_choice_ids(question);
        return true;
    }

    bool read_truefalse(const xmlNode* node, Question& question, QuestionSource&) {
        question.type = QuestionType::TrueFalse;
        std::optional<bool> right;
        for (const xmlNode* answer : children(node, "answer")) {
            std::string text = collapse_spaces(content(child(answer, "text")));
            std::transform(text.begin(), text.end(), text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (text != "true" && text != "false") {
                report_.error_at(position(answer), "a true/false answer is \"true\" or \"false\", not " +
                                                       in_quotes(text.substr(0, 40)));
                return false;
            }
            if (is_full(fraction_of(answer)) && !right)
                right = text == "true";
            keep_answer_feedback(answer);
        }
        if (!right) {
            report_.error_at(position(node), "neither \"true\" nor \"false\" has the fraction 100");
            return false;
        }
        question.true_false_answer = *right;
        return true;
    }

    bool read_shortanswer(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::ShortText;
        if (is_true(content(child(node, "usecase"))))
            report_.warning_at(where.question, "case-sensitive matching is not supported: the "
                                               "answers are accepted in any case");
        for (const xmlNode* answer : children(node, "answer")) {
            const std::string text = collapse_spaces(content(child(answer, "text")));
            const double fraction = fraction_of(answer);
            if (!is_full(fraction)) {
                if (fraction > 0)
                    report_.warning_at(position(answer),
                                       "the answer " + in_quotes(text.substr(0, 40)) + " (fraction " +
                                           format(fraction) + "%) is dropped: only fully right "
                                           "answers are accepted");
                continue;
            }
            if (text.empty()) {
                report_.error_at(position(answer), "the answer text is empty");
                return false;
            }
            if (text.find('*') != std::string::npos)
                report_.warning_at(position(answer),
                                   "the answer " + in_quotes(text.substr(0, 40)) +
                                       " has a * wildcard: it is accepted as written, star included");
            if (question.accepted_texts.size() >= max_choices_per_question()) {
                report_.error_at(position(answer), "too many answers: a question takes at most " +
                                                       std::to_string(max_choices_per_question()));
                return false;
            }
            question.accepted_texts.push_back(text_in(options_.language, text));
            where.accepted.push_back(position(answer));
            keep_answer_feedback(answer);
        }
        if (question.accepted_texts.empty()) {
            report_.error_at(where.question, "no answer has the fraction 100");
            return false;
        }
        return true;
    }

    bool read_numerical(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::Numeric;
        const xmlNode* chosen = nullptr;
        int full = 0;
        for (const xmlNode* answer : children(node, "answer")) {
            if (!is_full(fraction_of(answer)))
                continue;
            if (++full == 1)
                chosen = answer;
        }
        if (chosen == nullptr) {
            report_.error_at(where.question, "no answer has the fraction 100");
            return false;
        }
        if (full > 1)
            report_.warning_at(where.question, "the question has " + std::to_string(full) +
                                                   " fully right answers: only the first is kept");
        const std::string written = collapse_spaces(content(child(chosen, "text")));
        const auto value = parse_number(written);
        if (!value || !std::isfinite(*value)) {
            report_.error_at(position(chosen), "invalid numerical answer " +
                                                   in_quotes(written.substr(0, 40)) +
                                                   ": expected a number like 3.5");
            return false;
        }
        double tolerance = 0;
        const std::string tolerance_written = collapse_spaces(content(child(chosen, "tolerance")));
        if (!tolerance_written.empty()) {
            const auto parsed = parse_number(tolerance_written);
            if (!parsed || !std::isfinite(*parsed) || *parsed < 0) {
                report_.error_at(position(child(chosen, "tolerance")),
                                 "invalid tolerance " + in_quotes(tolerance_written.substr(0, 40)) +
                                     ": expected a number of 0 or more");
                return false;
            }
            tolerance = *parsed;
        }
        question.numeric_answer.form = NumericAnswer::Form::ValueWithTolerance;
        question.numeric_answer.value = *value;
        question.numeric_answer.tolerance = tolerance;
        keep_answer_feedback(chosen);

        bool have_unit = false;
        for (const xmlNode* unit : children(child(node, "units"), "unit")) {
            const std::string unit_name = collapse_spaces(content(child(unit, "unit_name")));
            const auto multiplier = parse_number(collapse_spaces(content(child(unit, "multiplier"))));
            if (!have_unit && multiplier && *multiplier == 1 && !unit_name.empty()) {
                question.unit = text_in(options_.language,
                                        markdown_ ? escape_markdown(unit_name) : unit_name);
                have_unit = true;
                continue;
            }
            report_.warning_at(position(unit), "the unit " + in_quotes(unit_name.substr(0, 40)) +
                                                   " is dropped: a bank's numeric answer has one "
                                                   "unit, with the multiplier 1");
        }
        return true;
    }

    bool read_matching(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::Matching;
        partial_credit_ = true;
        std::vector<std::size_t> answer_of_item;
        const std::vector<const xmlNode*> subquestions = children(node, "subquestion");
        if (!within_limit(subquestions, "subquestions"))
            return false;
        for (const xmlNode* sub : subquestions) {
            const std::string item_text = read_text(sub, "html");
            std::string answer_text = collapse_spaces(content(child(child(sub, "answer"), "text")));
            if (answer_text.empty()) {
                report_.error_at(position(sub), "the subquestion's answer is empty");
                return false;
            }
            if (markdown_)
                answer_text = escape_markdown(answer_text);
            std::size_t index = 0;
            while (index < question.choices.size() &&
                   question.choices[index].text.get(options_.language, options_.language) != answer_text)
                ++index;
            if (index == question.choices.size()) {
                Choice choice;
                choice.text = text_in(options_.language, answer_text);
                question.choices.push_back(std::move(choice));
                where.choices.push_back(position(sub));
            }
            if (is_blank(item_text))
                continue;   // an answer no item goes with: a distractor
            MatchItem item;
            item.text = text_in(options_.language, item_text);
            question.match_items.push_back(std::move(item));
            answer_of_item.push_back(index);
        }
        if (question.match_items.size() < 2) {
            report_.error_at(where.question, "a matching question needs at least 2 subquestions "
                                             "with a text");
            return false;
        }
        assign_matching_ids(question, answer_of_item);
        return true;
    }

    // qtype_ordering (a plugin): the answers' fractions give their places (1, 2, 3...).
    bool read_ordering(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::Ordering;
        partial_credit_ = true;
        std::vector<const xmlNode*> answers = children(node, "answer");
        if (!within_limit(answers, "answers"))
            return false;
        std::stable_sort(answers.begin(), answers.end(), [](const xmlNode* a, const xmlNode* b) {
            return fraction_of(a) < fraction_of(b);
        });
        for (const xmlNode* answer : answers) {
            const std::string text = read_text(answer, "html");
            if (is_blank(text)) {
                report_.error_at(position(answer), "the answer text is empty");
                return false;
            }
            Choice choice;
            choice.text = text_in(options_.language, text);
            question.choices.push_back(std::move(choice));
            where.choices.push_back(position(answer));
        }
        if (question.choices.size() < 2) {
            report_.error_at(where.question, "an ordering question needs at least 2 items");
            return false;
        }
        assign_choice_ids(question);
        return true;
    }

    // Where `offset` of a <text>'s content is in the file: libxml2 gives the line of <text>, the
    // content's own line breaks the rest.
    SourcePosition position_in_text(const xmlNode* text_element, std::string_view raw,
                                     std::size_t offset) const {
        const long line = (text_element == nullptr ? 0 : xmlGetLineNo(text_element)) +
                          std::count(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
        const auto& lines = source_->lines();
        if (line < 1 || static_cast<std::size_t>(line) > lines.size())
            return {1, 1};
        return source_->start_of(lines[static_cast<std::size_t>(line) - 1]);
    }

    // Moodle's embedded answers (qtype_multianswer, exported as "cloze"): each
    // "{weight:TYPE:answers}" of the question text becomes the blank {{blank-N}}.
    bool read_multianswer(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::Cloze;
        partial_credit_ = true;   // Moodle grades each embedded answer
        const xmlNode* questiontext = child(node, "questiontext");
        const xmlNode* text_element = child(questiontext, "text");
        const std::string raw = content(text_element);
        std::string rewritten;
        std::size_t at = 0;
        while (const auto embedded = find_embedded_answer(raw, at)) {
            const SourcePosition here = position_in_text(text_element, raw, embedded->begin);
            if (question.blanks.size() >= max_choices_per_question()) {
                report_.error_at(here, "too many embedded answers: a question takes at most " +
                                           std::to_string(max_choices_per_question()));
                return false;
            }
            Blank blank;
            blank.id = "blank-" + std::to_string(question.blanks.size() + 1);
            if (!read_embedded_answer(questiontext, *embedded, here, blank))
                return false;
            rewritten.append(raw, at, embedded->begin - at);
            rewritten += "{{" + blank.id + "}}";
            at = embedded->end;
            question.blanks.push_back(std::move(blank));
        }
        return finish_cloze_text(questiontext, raw, rewritten, at,
                                 "embedded answer like {1:SHORTANSWER:=answer}", question, where);
    }

    // The question text with its blanks written in (`rewritten`, then `raw` from `at` on), read
    // as this bank's texts are: the {{id}}s are plain text to the HTML converter, kept as written.
    // False after an error when the text had no blank (`example`: what one looks like).
    bool finish_cloze_text(const xmlNode* questiontext, const std::string& raw, std::string rewritten,
                           std::size_t at, const char* example, Question& question,
                           const QuestionSource& where) {
        if (question.blanks.empty()) {
            report_.error_at(where.question, "the question text of " + question_name_ + " has no " + example);
            return false;
        }
        rewritten.append(raw, at, std::string::npos);
        question.prompt = text_in(options_.language, read_text(questiontext, rewritten, "html"));
        return true;
    }

    bool read_embedded_answer(const xmlNode* questiontext, const EmbeddedAnswer& embedded,
                              SourcePosition here, Blank& blank) {
        const std::string label = blank.id + " (" + embedded.type + "): ";
        const std::string& type = embedded.type;
        if (type.rfind("MULTIRESPONSE", 0) == 0 || type.rfind("MR", 0) == 0) {
            report_.warning_at(here, label + "a blank takes one answer, not several: the question " +
                                         question_name_ + " is skipped");
            return false;
        }
        if (!embedded.weight.empty() && embedded.weight != "1")
            report_.warning_at(here, label + "Moodle weighs it " + embedded.weight +
                                         ": ImQuiz weighs every blank the same");
        const std::vector<EmbeddedAlternative> answers = embedded_alternatives(embedded.body);
        if (answers.size() > max_choices_per_question()) {
            report_.error_at(here, label + "too many answers: a question takes at most " +
                                       std::to_string(max_choices_per_question()));
            return false;
        }
        if (type.rfind("MULTICHOICE", 0) == 0 || type.rfind("MC", 0) == 0) {
            blank.kind = Blank::Kind::Options;
            if (type.back() == 'S')
                shuffle_ = true;
            for (const EmbeddedAlternative& answer : answers) {
                const std::string text = read_text(questiontext, answer.text, "html");
                if (is_blank(text)) {
                    report_.error_at(here, label + "an answer text is empty");
                    return false;
                }
                Choice choice;
                choice.text = text_in(options_.language, text);
                choice.correct = is_full(answer.fraction) && blank.correct_option() == nullptr;
                if (answer.fraction > 0 && !choice.correct)
                    report_.warning_at(here, label + "the answer " + in_quotes(text.substr(0, 40)) +
                                                 " (fraction " + format(answer.fraction) +
                                                 "%) counts as wrong: a blank has one right answer");
                const std::string feedback = read_text(questiontext, answer.feedback, "html");
                if (!feedback.empty())
                    choice.feedback = text_in(options_.language, feedback);
                blank.options.push_back(std::move(choice));
            }
            if (blank.correct_option() == nullptr) {
                report_.error_at(here, label + "no answer has the fraction 100");
                return false;
            }
            assign_option_ids(blank.options);
            return true;
        }
        const bool numeric = type == "NUMERICAL" || type == "NM";
        blank.kind = numeric ? Blank::Kind::Numeric : Blank::Kind::Typed;
        if (type == "SHORTANSWER_C" || type == "SAC" || type == "MWC")
            report_.warning_at(here, label + "case-sensitive matching is not supported: the answers "
                                             "are accepted in any case");
        std::vector<std::string> feedbacks;
        bool have_number = false;
        for (const EmbeddedAlternative& answer : answers) {
            const std::string text = typed_text(questiontext, answer.text);
            if (!is_full(answer.fraction)) {
                if (answer.fraction > 0)
                    report_.warning_at(here, label + "the answer " + in_quotes(text.substr(0, 40)) +
                                                 " (fraction " + format(answer.fraction) +
                                                 "%) is dropped: only fully right answers are accepted");
                continue;
            }
            if (text.empty()) {
                report_.error_at(here, label + "an answer text is empty");
                return false;
            }
            if (numeric && have_number) {
                report_.warning_at(here, label + "the answer " + in_quotes(text.substr(0, 40)) +
                                             " is dropped: a number blank keeps its first fully "
                                             "right answer");
                continue;
            }
            if (numeric) {
                if (!read_embedded_number(text, here, label, blank.numeric_answer))
                    return false;
                have_number = true;
            } else {
                if (text.find('*') != std::string::npos)
                    report_.warning_at(here, label + "the answer " + in_quotes(text.substr(0, 40)) +
                                                 " has a * wildcard: it is accepted as written, star included");
                blank.accepted_texts.push_back(text_in(options_.language, text));
            }
            const std::string feedback = read_text(questiontext, answer.feedback, "html");
            if (!feedback.empty())
                feedbacks.push_back(feedback);
        }
        if (numeric ? !have_number : blank.accepted_texts.empty()) {
            report_.error_at(here, label + "no answer has the fraction 100");
            return false;
        }
        std::string joined;
        for (const std::string& feedback : feedbacks)
            joined += (joined.empty() ? "" : markdown_ ? "\n\n" : " ") + feedback;
        if (!joined.empty())
            blank.feedback = text_in(options_.language, joined);
        return true;
    }

    // "5", "5:0.1" (value:tolerance); Moodle also writes "2,5".
    bool read_embedded_number(const std::string& written, SourcePosition here, const std::string& label,
                              NumericAnswer& answer) {
        const std::size_t colon = written.find(':');
        const auto value = parse_number(written.substr(0, colon));
        const auto tolerance = colon == std::string::npos ? std::optional<double>(0)
                                                          : parse_number(written.substr(colon + 1));
        if (!value || !tolerance || !std::isfinite(*value) || !std::isfinite(*tolerance) || *tolerance < 0) {
            report_.error_at(here, label + "invalid numerical answer " + in_quotes(written.substr(0, 40)) +
                                       ": expected a number like 3.5 or 3.5:0.1");
            return false;
        }
        answer.form = NumericAnswer::Form::ValueWithTolerance;
        answer.value = *value;
        answer.tolerance = *tolerance;
        return true;
    }

    // gapselect and ddwtos: each "[[n]]" of the question text is a blank whose right answer is the
    // n-th <selectoption> (or <dragbox>), chosen among the options of its <group>.
    bool read_gaps(const xmlNode* node, Question& question, QuestionSource& where) {
        question.type = QuestionType::Cloze;
        partial_credit_ = true;   // Moodle grades each gap
        if (is_true(content(child(node, "shuffleanswers"))))
            shuffle_ = true;
        std::vector<const xmlNode*> options = children(node, "selectoption");
        if (options.empty())
            options = children(node, "dragbox");
        if (!within_limit(options, "choices"))
            return false;
        std::vector<std::string> texts, groups;
        for (const xmlNode* option : options) {
            std::string text = collapse_spaces(content(child(option, "text")));
            if (text.empty()) {
                report_.error_at(position(option), "the choice text is empty");
                return false;
            }
            texts.push_back(markdown_ ? escape_markdown(text) : text);
            const std::string group = collapse_spaces(content(child(option, "group")));
            groups.push_back(group.empty() ? "1" : group);
        }
        const xmlNode* questiontext = child(node, "questiontext");
        const xmlNode* text_element = child(questiontext, "text");
        const std::string raw = content(text_element);
        std::string rewritten;
        std::size_t at = 0;
        for (std::size_t open = raw.find("[["); open != std::string::npos; open = raw.find("[[", open + 1)) {
            std::size_t end = open + 2;
            while (end < raw.size() && end - open < 6 && raw[end] >= '0' && raw[end] <= '9')
                ++end;
            if (end == open + 2 || raw.compare(end, 2, "]]") != 0)
                continue;
            const std::size_t number = std::stoul(raw.substr(open + 2, end - open - 2));
            const SourcePosition here = position_in_text(text_element, raw, open);
            if (number < 1 || number > texts.size()) {
                report_.error_at(here, "the gap " + raw.substr(open, end + 2 - open) + " has no choice " +
                                           std::to_string(number) + ": the question has " +
                                           std::to_string(texts.size()) + " choices");
                return false;
            }
            if (question.blanks.size() >= max_choices_per_question()) {
                report_.error_at(here, "too many gaps: a question takes at most " +
                                           std::to_string(max_choices_per_question()));
                return false;
            }
            Blank blank;
            blank.id = "blank-" + std::to_string(question.blanks.size() + 1);
            blank.kind = Blank::Kind::Options;
            for (std::size_t i = 0; i < texts.size(); ++i) {
                if (groups[i] != groups[number - 1])
                    continue;
                Choice choice;
                choice.text = text_in(options_.language, texts[i]);
                choice.correct = i == number - 1;
                blank.options.push_back(std::move(choice));
            }
            assign_option_ids(blank.options);
            rewritten.append(raw, at, open - at);
            rewritten += "{{" + blank.id + "}}";
            at = end + 2;
            open = end + 1;   // the next search starts right after "]]"
            question.blanks.push_back(std::move(blank));
        }
        return finish_cloze_text(questiontext, raw, rewritten, at, "gap like [[1]]", question, where);
    }

    // A question takes at most as many answers (or subquestions) as a bank's question takes
    // choices; the first one over is reported.
    bool within_limit(const std::vector<const xmlNode*>& nodes, const char* what) {
        if (nodes.size() <= max_choices_per_question())
            return true;
        report_.error_at(position(nodes[max_choices_per_question()]),
                         std::string("too many ") + what + ": a question takes at most " +
                             std::to_string(max_choices_per_question()));
        return false;
    }

    static std::string format(double number) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", number);
        return buffer;
    }

    // The text of an element that holds <text> (and perhaps <file>s), in its format attribute's
    // way (`default_format` when it has none), as this bank's text format.
    std::string read_text(const xmlNode* owner, const char* default_format) {
        if (owner == nullptr)
            return {};
        return read_text(owner, content(child(owner, "text")), default_format);
    }

    // `raw` (a part of the owner's text, or its text rewritten) in the owner's format.
    std::string read_text(const xmlNode* owner, const std::string& raw, const char* default_format) {
        if (is_blank(raw))
            return {};
        std::string format = attribute(owner, "format");
        if (format.empty())
            format = default_format;
        if (format == "markdown") {
            any_markdown_ = true;
            return std::string(trim(raw));
        }
        if (format == "html")
            return html_text(owner, raw);
        if (format != "plain_text" && format != "moodle_auto_format")
            report_.warning_at(position(owner), "unknown text format " + in_quotes(format) +
                                                    ": read as plain text");
        const std::string plain(trim(raw));
        return markdown_ ? escape_markdown(plain) : plain;
    }

    static Document parse_html(const std::string& html) {
        xmlSetStructuredErrorFunc(nullptr, ignore_error);
        Document document(htmlReadMemory(html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
                                         HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET));
        xmlSetStructuredErrorFunc(nullptr, nullptr);
        return document;
    }

    // An answer a learner types, from a part of the owner's text: in an HTML text, its words
    // (tags dropped, entities resolved); never Markdown.
    std::string typed_text(const xmlNode* owner, const std::string& raw) {
        const std::string format = attribute(owner, "format");
        if (!format.empty() && format != "html")
            return collapse_spaces(raw);
        const Document document = parse_html(raw);
        if (document == nullptr)
            return collapse_spaces(raw);
        return collapse_spaces(content(xmlDocGetRootElement(document.get())));
    }

    std::string html_text(const xmlNode* owner, const std::string& html) {
        const SourcePosition where = position(owner);
        const Document document = parse_html(html);
        if (document == nullptr)
            return markdown_ ? escape_markdown(collapse_spaces(html)) : collapse_spaces(html);
        const xmlNode* root = xmlDocGetRootElement(document.get());
        const xmlNode* body = child(root, "body");
        HtmlText converter(
            markdown_, [&](const HtmlText::Image& image) { return image_path(owner, image, where); },
            [&](std::string message) { report_.warning_at(where, std::move(message)); });
        std::string text = converter.convert(body != nullptr ? body : root);
        if (converter.needs_markdown())
            any_markdown_ = true;
        return text;
    }

    // The embedded file an <img> shows, written beside the bank ("images/x.png"); "" after a
    // warning when it cannot be.
    std::string image_path(const xmlNode* owner, const HtmlText::Image& image, SourcePosition where) {
        constexpr std::string_view plugin_file = "@@PLUGINFILE@@/";
        const std::string label = in_quotes(image.source.substr(0, 80));
        if (image.source.rfind(plugin_file, 0) != 0) {
            report_.warning_at(where, "the image " + label + " is not embedded in the file: shown "
                                                             "as its alt text");
            return {};
        }
        const std::string wanted = percent_decoded(image.source.substr(plugin_file.size()));
        const std::size_t slash = wanted.rfind('/');
        const std::string wanted_name = slash == std::string::npos ? wanted : wanted.substr(slash + 1);
        const std::string wanted_path = slash == std::string::npos ? "/" : "/" + wanted.substr(0, slash + 1);
        const xmlNode* file = nullptr;
        for (const xmlNode* candidate : children(owner, "file")) {
            std::string path = attribute(candidate, "path");
            if (path.empty())
                path = "/";
            if (attribute(candidate, "name") == wanted_name && path == wanted_path) {
                file = candidate;
                break;
            }
        }
        if (file == nullptr) {
            report_.warning_at(where, "the image " + label + " has no <file> beside its text: "
                                                             "shown as its alt text");
            return {};
        }
        const auto bytes = decode_base64(content(file));
        if (!bytes) {
            report_.warning_at(position(file), "the file " + in_quotes(wanted_name) +
                                                   " is not valid base64: its image is shown as "
                                                   "its alt text");
            return {};
        }
        const ImageCheck check = check_image_file(*bytes, bytes->size());
        if (!check.file) {
            report_.warning_at(position(file), "the image " + in_quotes(wanted_name) + " " +
                                                   check.problem + ": shown as its alt text");
            return {};
        }
        if (image.alt.empty())
            report_.warning_at(where, "the image " + in_quotes(wanted_name) +
                                          " has no alt text: its file name stands in; write what "
                                          "it shows");
        // One file per distinct content; a name already taken by other bytes gets "-2", "-3"...
        // (by maps: a hostile file may embed thousands of images).
        if (const auto same = file_by_bytes_.find(*bytes); same != file_by_bytes_.end())
            return files_[same->second].path;
        const std::string safe = safe_file_name(wanted_name);
        const std::size_t dot = safe.rfind('.');
        std::string path = "images/" + safe;
        int& suffix = next_suffix_[safe];
        if (suffix < 2)
            suffix = 2;
        for (; paths_.count(path) != 0; ++suffix)
            path = "images/" + safe.substr(0, dot) + "-" + std::to_string(suffix) +
                   (dot == std::string::npos ? "" : safe.substr(dot));
        paths_.insert(path);
        file_by_bytes_.emplace(*bytes, files_.size());
        files_.push_back({path, *bytes});
        return path;
    }

    const ImportOptions& options_;
    const bool markdown_;
    DiagnosticCollector report_;
    const Source* source_ = nullptr;
    Bank bank_;
    SourceMap map_;
    UniqueIds question_ids_;
    std::string category_tag_;
    std::vector<std::string> answer_feedbacks_;   // of the question being read
    std::string general_feedback_;                // of the question being read
    std::string question_name_;                   // of the question being read, for messages
    bool partial_credit_ = false;   // a question Moodle grades in parts (multi-answer, matching...)
    bool shuffle_ = false;          // a question shuffles its answers
    bool any_markdown_ = false;     // a text needs Markdown to read as written
    std::vector<ImportedFile> files_;
    std::unordered_map<std::string, std::size_t> file_by_bytes_;   // index in files_
    std::set<std::string> paths_;                                   // of files_
    std::map<std::string, int> next_suffix_;                        // by safe file name
};

} // namespace

ImportResult import_moodle_xml(std::string_view text, std::string_view file_name,
                               const ImportOptions& options) {
    static const bool initialized = [] {
        xmlInitParser();
        return true;
    }();
    (void)initialized;
    std::vector<Diagnostic> diagnostics;
    // A bank has one text format: a first reading finds whether any text needs Markdown (a bold
    // word, code, a list, an image, math), the second writes every text that way.
    std::vector<Diagnostic> scratch;
    MoodleXmlImporter probe(file_name, options, false, scratch);
    if (!probe.check_input(text))
        return finish_import(Bank{}, SourceMap{}, std::move(scratch), file_name);
    const Source source(text);
    const Document document = probe.parse(source);
    if (document == nullptr)
        return finish_import(Bank{}, SourceMap{}, std::move(scratch), file_name);
    (void)probe.read(*document);

    MoodleXmlImporter importer(file_name, options, probe.any_markdown(), diagnostics);
    importer.use_source(source);
    const Bank bank = importer.read(*document);
    ImportResult result = finish_import(bank, importer.map(), std::move(diagnostics), file_name);
    if (result.bank)
        result.files = importer.take_files();
    return result;
}

} // namespace imquiz
