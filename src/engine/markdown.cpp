// md4c's events (markdown/md4c_events.h) into a RichText, and what an author must fix in one.
#include "engine/markdown.h"

#include "engine/markdown/md4c_events.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace imquiz {

namespace {

using namespace md4c_events;

// Reads the stream; every read is checked, and the first short one ends the stream.
class EventReader {
public:
    explicit EventReader(std::string_view bytes) : bytes_(bytes) {}
    bool more() const { return ok_ && at_ < bytes_.size(); }
    unsigned char byte() {
        if (!ok_ || at_ >= bytes_.size()) return fail(), 0;
        return static_cast<unsigned char>(bytes_[at_++]);
    }
    std::uint32_t u32() {
        std::uint32_t n = 0;
        for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(byte()) << (8 * i);
        return n;
    }
    std::string_view string() {
        std::uint32_t size = u32();
        if (!ok_ || size > bytes_.size() - at_) return fail(), std::string_view();
        std::string_view s = bytes_.substr(at_, size);
        at_ += size;
        return s;
    }
    bool ok() const { return ok_; }

private:
    void fail() { ok_ = false; }
    std::string_view bytes_;
    std::size_t at_ = 0;
    bool ok_ = true;
};

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

    void enter_block(unsigned char type, EventReader& in) {
        switch (type) {
        case Quote: close_paragraph(); ++quote_; break;
        case UnorderedList: close_paragraph(); lists_.push_back(0); break;
        case OrderedList: close_paragraph(); lists_.push_back(static_cast<std::int64_t>(in.u32()) + 1); break;
        case ListItem:
            close_paragraph();
            if (!lists_.empty()) {
                std::int64_t& next = lists_.back();
                pending_marker_ = next == 0 ? "•" : std::to_string(next++ - 1) + ".";
            }
            break;
        case Rule: open(Block::Kind::Rule); close(); break;
        case Heading: open(Block::Kind::Heading).level = std::clamp<int>(in.byte(), 1, 6); break;
        case CodeBlock: open(Block::Kind::Code).language = std::string(in.string()); break;
        case Paragraph: case Html: open(Block::Kind::Paragraph); break;
        case Table: open(Block::Kind::Table); break;
        case TableHead: in_head_ = true; break;
        case TableBody: in_head_ = false; break;
        case TableRow:
            if (Block* table = current(Block::Kind::Table)) {
                table->rows.emplace_back();
                if (in_head_) table->header_rows = table->rows.size();
            }
            break;
        case HeaderCell: case Cell: {
            unsigned char align = in.byte();
            if (Block* table = current(Block::Kind::Table); table && !table->rows.empty()) {
                table->rows.back().emplace_back();
                if (table->rows.size() == 1) table->align.push_back("\0lcr"[std::min<unsigned char>(align, 3)]);
            }
            break;
        }
        default: break;
        }
    }

    void leave_block(unsigned char type) {
        switch (type) {
        case Quote: close_paragraph(); quote_ = std::max(0, quote_ - 1); break;
        case UnorderedList: case OrderedList: close_paragraph(); if (!lists_.empty()) lists_.pop_back(); break;
        case ListItem: close_paragraph(); pending_marker_.clear(); break;
        case Heading: case Paragraph: case Html: case CodeBlock: case Table: close(); break;
        default: break;
        }
    }

    void enter_span(unsigned char type, EventReader& in) {
        switch (type) {
        case Emphasis: ++emphasis_; break;
        case Strong: ++strong_; break;
        case Strikethrough: ++strike_; break;
        case Link: links_.emplace_back(in.string()); break;
        case Image:
            image_ = Inline{Inline::Kind::Image, style(), {}, std::string(in.string())};
            ++image_depth_;
            break;
        case Code: code_ = true; break;
        case Math: math_ = Inline::Kind::Math; break;
        case DisplayMath: math_ = Inline::Kind::DisplayMath; break;
        default: break;
        }
    }

    void leave_span(unsigned char type) {
        switch (type) {
        case Emphasis: emphasis_ = std::max(0, emphasis_ - 1); break;
        case Strong: strong_ = std::max(0, strong_ - 1); break;
        case Strikethrough: strike_ = std::max(0, strike_ - 1); break;
        case Link: if (!links_.empty()) links_.pop_back(); break;
        case Image:
            // An image inside an image's alt text (md4c allows it) adds its own alt to the outer.
            if (image_depth_ > 0 && --image_depth_ == 0) runs().push_back(std::move(image_));
            break;
        case Code: code_ = false; break;
        case Math: case DisplayMath: math_ = Inline::Kind::Text; break;
        default: break;
        }
    }

    void text(unsigned char type, std::string_view chars) {
        if (type == CodeText) {
            if (Block* code = current(Block::Kind::Code)) return void(code->code += chars);
        }
        std::string decoded;
        switch (type) {
        case NullChar: decoded = "\xEF\xBF\xBD"; break;
        case HardBreak:
            if (image_depth_ > 0) { image_.text += ' '; return; }
            runs().push_back({Inline::Kind::LineBreak, style(), {}, {}});
            return;
        case SoftBreak: decoded = " "; break;
        case Entity: append_entity(decoded, chars); break;
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

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

void check_runs(const std::vector<Inline>& runs, std::vector<std::string>& problems) {
    for (const Inline& run : runs) {
        if (run.kind == Inline::Kind::Image) {
            const std::string source = lower(run.link);
            std::string path = source.substr(0, source.find_first_of("?#"));
            std::size_t dot = path.rfind('.');
            std::string extension = dot == std::string::npos ? "" : path.substr(dot + 1);
            if (run.text.find_first_not_of(" \t\n") == std::string::npos)
                problems.push_back("the image " + run.link +
                                   " has no alt text: say what it shows, as in ![a schedule of four stages](" + run.link +
                                   ")");
            if (source.empty() || source.find(':') != std::string::npos || starts_with(source, "/") ||
                starts_with(source, "\\"))
                problems.push_back("the image \"" + run.link +
                                   "\" is not a file beside the bank: write a path relative to the bank file, like "
                                   "images/schedule.svg");
            else if (extension != "png" && extension != "jpg" && extension != "jpeg" && extension != "webp" &&
                     extension != "svg")
                problems.push_back("the image " + run.link + " is not a PNG, JPEG, WebP or SVG file");
        } else if (!run.link.empty()) {
            const std::string target = lower(run.link);
            if (!starts_with(target, "https://") && !starts_with(target, "http://") && !starts_with(target, "mailto:"))
                problems.push_back("the link \"" + run.link + "\" must start with https://, http:// or mailto:");
        }
    }
}

}  // namespace

RichText rich_text_from_events(std::string_view events) {
    EventReader in(events);
    Builder builder;
    while (in.more()) {
        unsigned char tag = in.byte();
        unsigned char type = in.byte();
        switch (tag) {
        case 'B': builder.enter_block(type, in); break;
        case 'b': builder.leave_block(type); break;
        case 'S': builder.enter_span(type, in); break;
        case 's': builder.leave_span(type); break;
        case 'T': {
            std::string_view chars = in.string();
            if (in.ok()) builder.text(type, chars);
            break;
        }
        default: return builder.take();  // not a stream this reader knows
        }
    }
    return builder.take();
}

std::vector<std::string> markdown_problems(const RichText& text) {
    std::vector<std::string> problems;
    for (const Block& block : text.blocks) {
        check_runs(block.inlines, problems);
        for (const auto& row : block.rows)
            for (const auto& cell : row) check_runs(cell, problems);
    }
    return problems;
}

}  // namespace imquiz
