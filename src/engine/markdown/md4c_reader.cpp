// md4c's callbacks into a RichText: natively inside the engine, on the web inside the Markdown
// module (program/markdown_module.cpp), never in the app's own wasm.
#include "engine/markdown.h"

#include <md4c.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace imquiz {

namespace {

// An attribute (a link's href, an image's src) as written; md4c has already taken the escapes
// out, and entities in URLs stay as written (browsers accept them either way).
std::string attribute(const MD_ATTRIBUTE& a) { return a.text ? std::string(a.text, a.size) : std::string(); }

void append_utf8(std::string& out, std::uint32_t c) {
    if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

// An entity as md4c reports it ("&amp;", "&#8212;", "&#x2014;"). Numeric ones are decoded; of
// the 2,125 named ones, those a quiz text plausibly uses. md4c-html's full table would add 20 KB
// to the Markdown module for names nobody types; any other name stays as written, visibly.
void append_entity(std::string& out, std::string_view entity) {
    if (entity.size() > 3 && entity[1] == '#') {
        bool hex = entity[2] == 'x' || entity[2] == 'X';
        std::string digits(entity.substr(hex ? 3 : 2, entity.size() - (hex ? 4 : 3)));
        if (!digits.empty() && digits.size() <= 8) {
            append_utf8(out, static_cast<std::uint32_t>(std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10)));
            return;
        }
    }
    static const struct { const char* name; std::uint32_t code; } named[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&nbsp;", 0xA0},
        {"&ndash;", 0x2013}, {"&mdash;", 0x2014}, {"&hellip;", 0x2026}, {"&laquo;", 0xAB}, {"&raquo;", 0xBB},
        {"&lsquo;", 0x2018}, {"&rsquo;", 0x2019}, {"&ldquo;", 0x201C}, {"&rdquo;", 0x201D}, {"&bull;", 0x2022},
        {"&middot;", 0xB7}, {"&times;", 0xD7}, {"&divide;", 0xF7}, {"&plusmn;", 0xB1}, {"&deg;", 0xB0},
        {"&copy;", 0xA9}, {"&reg;", 0xAE}, {"&trade;", 0x2122}, {"&euro;", 0x20AC}, {"&sect;", 0xA7},
        {"&para;", 0xB6}, {"&shy;", 0xAD}, {"&micro;", 0xB5}, {"&frac12;", 0xBD}, {"&sup2;", 0xB2}, {"&sup3;", 0xB3},
    };
    for (const auto& e : named)
        if (entity == e.name) return append_utf8(out, e.code);
    out += entity;
}

class Builder {
public:
    RichText take() { return std::move(text_); }

    void enter_block(MD_BLOCKTYPE type, void* detail) {
        switch (type) {
        case MD_BLOCK_QUOTE: close_paragraph(); ++quote_; break;
        case MD_BLOCK_UL: close_paragraph(); lists_.push_back(0); break;
        case MD_BLOCK_OL:
            close_paragraph();
            lists_.push_back(static_cast<std::int64_t>(static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start) + 1);
            break;
        case MD_BLOCK_LI:
            close_paragraph();
            if (!lists_.empty()) {
                std::int64_t& next = lists_.back();
                pending_marker_ = next == 0 ? "•" : std::to_string(next++ - 1) + ".";
            }
            break;
        case MD_BLOCK_HR: open(Block::Kind::Rule); close(); break;
        case MD_BLOCK_H:
            open(Block::Kind::Heading).level = std::clamp<int>(static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level), 1, 6);
            break;
        case MD_BLOCK_CODE: open(Block::Kind::Code).language = attribute(static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang); break;
        case MD_BLOCK_P: case MD_BLOCK_HTML: open(Block::Kind::Paragraph); break;
        case MD_BLOCK_TABLE: open(Block::Kind::Table); break;
        case MD_BLOCK_THEAD: in_head_ = true; break;
        case MD_BLOCK_TBODY: in_head_ = false; break;
        case MD_BLOCK_TR:
            if (Block* table = current(Block::Kind::Table)) {
                table->rows.emplace_back();
                if (in_head_) table->header_rows = table->rows.size();
            }
            break;
        case MD_BLOCK_TH: case MD_BLOCK_TD: {
            int align = static_cast<int>(static_cast<MD_BLOCK_TD_DETAIL*>(detail)->align);
            if (Block* table = current(Block::Kind::Table); table && !table->rows.empty()) {
                table->rows.back().emplace_back();
                if (table->rows.size() == 1) table->align.push_back("\0lcr"[std::clamp(align, 0, 3)]);
            }
            break;
        }
        default: break;
        }
    }

    void leave_block(MD_BLOCKTYPE type) {
        switch (type) {
        case MD_BLOCK_QUOTE: close_paragraph(); quote_ = std::max(0, quote_ - 1); break;
        case MD_BLOCK_UL: case MD_BLOCK_OL: close_paragraph(); if (!lists_.empty()) lists_.pop_back(); break;
        case MD_BLOCK_LI: close_paragraph(); pending_marker_.clear(); break;
        case MD_BLOCK_H: case MD_BLOCK_P: case MD_BLOCK_HTML: case MD_BLOCK_CODE: case MD_BLOCK_TABLE: close(); break;
        default: break;
        }
    }

    void enter_span(MD_SPANTYPE type, void* detail) {
        switch (type) {
        case MD_SPAN_EM: ++emphasis_; break;
        case MD_SPAN_STRONG: ++strong_; break;
        case MD_SPAN_DEL: ++strike_; break;
        case MD_SPAN_A: links_.push_back(attribute(static_cast<MD_SPAN_A_DETAIL*>(detail)->href)); break;
        case MD_SPAN_IMG:
            if (image_depth_++ == 0)
                image_ = Inline{Inline::Kind::Image, style(), {}, attribute(static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src)};
            break;
        case MD_SPAN_CODE: code_ = true; break;
        case MD_SPAN_LATEXMATH: math_ = Inline::Kind::Math; break;
        case MD_SPAN_LATEXMATH_DISPLAY: math_ = Inline::Kind::DisplayMath; break;
        default: break;
        }
    }

    void leave_span(MD_SPANTYPE type) {
        switch (type) {
        case MD_SPAN_EM: emphasis_ = std::max(0, emphasis_ - 1); break;
        case MD_SPAN_STRONG: strong_ = std::max(0, strong_ - 1); break;
        case MD_SPAN_DEL: strike_ = std::max(0, strike_ - 1); break;
        case MD_SPAN_A: if (!links_.empty()) links_.pop_back(); break;
        case MD_SPAN_IMG:
            // An image inside an image's alt text (md4c allows it) adds its own alt to the outer.
            if (image_depth_ > 0 && --image_depth_ == 0) runs().push_back(std::move(image_));
            break;
        case MD_SPAN_CODE: code_ = false; break;
        case MD_SPAN_LATEXMATH: case MD_SPAN_LATEXMATH_DISPLAY: math_ = Inline::Kind::Text; break;
        default: break;
        }
    }

    void text(MD_TEXTTYPE type, std::string_view chars) {
        if (type == MD_TEXT_CODE) {
            if (Block* code = current(Block::Kind::Code)) return void(code->code += chars);
        }
        std::string decoded;
        switch (type) {
        case MD_TEXT_NULLCHAR: decoded = "\xEF\xBF\xBD"; break;
        case MD_TEXT_BR:
            if (image_depth_ > 0) { image_.text += ' '; return; }
            runs().push_back({Inline::Kind::LineBreak, style(), {}, {}});
            return;
        case MD_TEXT_SOFTBR: decoded = " "; break;
        case MD_TEXT_ENTITY: append_entity(decoded, chars); break;
        default: decoded = std::string(chars); break;
        }
        if (image_depth_ > 0) return void(image_.text += decoded);
        Inline::Kind kind = math_ != Inline::Kind::Text ? math_ : code_ ? Inline::Kind::Code : Inline::Kind::Text;
        std::vector<Inline>& into = runs();
        std::string link = links_.empty() ? std::string() : links_.back();
        if (!into.empty() && into.back().kind == kind && into.back().style == style() && into.back().link == link)
            into.back().text += decoded;
        else
            into.push_back({kind, style(), std::move(decoded), std::move(link)});
    }

private:
    std::uint8_t style() const {
        return static_cast<std::uint8_t>((emphasis_ ? Inline::Emphasis : 0) | (strong_ ? Inline::Strong : 0) |
                                         (strike_ ? Inline::Strikethrough : 0));
    }

    Block& open(Block::Kind kind) {
        close_paragraph();
        Block block;
        block.kind = kind;
        block.depth = static_cast<int>(lists_.size());
        block.quote = quote_ > 0;
        block.marker = std::move(pending_marker_);
        pending_marker_.clear();
        text_.blocks.push_back(std::move(block));
        open_ = true;
        return text_.blocks.back();
    }

    void close() {
        if (!open_) return;
        open_ = false;
        Block& block = text_.blocks.back();
        if (block.kind == Block::Kind::Code && !block.code.empty() && block.code.back() == '\n') block.code.pop_back();
        bool empty = (block.kind == Block::Kind::Paragraph || block.kind == Block::Kind::Heading) && block.inlines.empty();
        if (empty && block.marker.empty()) text_.blocks.pop_back();
    }
    // A tight list item's words come without a paragraph of their own.
    void close_paragraph() {
        if (open_ && text_.blocks.back().kind == Block::Kind::Paragraph) close();
    }

    Block* current(Block::Kind kind) {
        return open_ && text_.blocks.back().kind == kind ? &text_.blocks.back() : nullptr;
    }

    // Where the next run goes: the open paragraph or heading, the table's last cell, or a new
    // paragraph (a tight list item's words, text after a nested list).
    std::vector<Inline>& runs() {
        if (open_) {
            Block& block = text_.blocks.back();
            if (block.kind == Block::Kind::Paragraph || block.kind == Block::Kind::Heading) return block.inlines;
            if (block.kind == Block::Kind::Table && !block.rows.empty() && !block.rows.back().empty())
                return block.rows.back().back();
        }
        return open(Block::Kind::Paragraph).inlines;
    }

    RichText text_;
    bool open_ = false;          // text_.blocks.back() is still being filled
    std::vector<std::int64_t> lists_;  // per open list: 0 unordered, else the next number + 1
    std::string pending_marker_;
    int quote_ = 0, emphasis_ = 0, strong_ = 0, strike_ = 0, image_depth_ = 0;
    bool code_ = false, in_head_ = false;
    Inline::Kind math_ = Inline::Kind::Text;
    std::vector<std::string> links_;
    Inline image_;
};

}  // namespace

ParsedMarkdown read_markdown(std::string_view markdown) {
    Builder builder;
    MD_PARSER parser{};
    // Tables, strikethrough, $math$; raw HTML is not recognized, so it stays the text it is.
    // No other link syntax (permissive autolinks, wiki links): markdown_check.cpp skips texts
    // without "[", "<" and "$", which only holds while links need one of them.
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML;
    parser.enter_block = [](MD_BLOCKTYPE type, void* detail, void* user) {
        return static_cast<Builder*>(user)->enter_block(type, detail), 0;
    };
    parser.leave_block = [](MD_BLOCKTYPE type, void*, void* user) { return static_cast<Builder*>(user)->leave_block(type), 0; };
    parser.enter_span = [](MD_SPANTYPE type, void* detail, void* user) {
        return static_cast<Builder*>(user)->enter_span(type, detail), 0;
    };
    parser.leave_span = [](MD_SPANTYPE type, void*, void* user) { return static_cast<Builder*>(user)->leave_span(type), 0; };
    parser.text = [](MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
        return static_cast<Builder*>(user)->text(type, std::string_view(text, size)), 0;
    };
    // md4c gives up only when out of memory; what was read until then is kept.
    md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &builder);
    ParsedMarkdown parsed;
    parsed.text = builder.take();
    parsed.problems = markdown_problems(parsed.text);
    return parsed;
}

}  // namespace imquiz
