// md4c's callbacks written down as events (md4c_events.h). Compiled into the engine natively and,
// on the web, into the separate Markdown module (platform/web/markdown_module.cpp), never into the
// app's own wasm.
#include "engine/markdown/md4c_events.h"

#include "engine/markdown.h"

#include <md4c.h>

#include <cstdint>

namespace imquiz::md4c_events {

constexpr bool same(int ours, int md4c) { return ours == md4c; }
static_assert(same(Paragraph, MD_BLOCK_P) && same(Cell, MD_BLOCK_TD) && same(HeaderCell, MD_BLOCK_TH) &&
              same(CodeBlock, MD_BLOCK_CODE) && same(Html, MD_BLOCK_HTML));
static_assert(same(DisplayMath, MD_SPAN_LATEXMATH_DISPLAY) && same(Image, MD_SPAN_IMG) && same(Strikethrough, MD_SPAN_DEL));
static_assert(same(MathText, MD_TEXT_LATEXMATH) && same(Entity, MD_TEXT_ENTITY) && same(SoftBreak, MD_TEXT_SOFTBR));

namespace {

void put_u32(std::string& out, std::uint32_t n) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
}

void put_string(std::string& out, const char* text, std::size_t size) {
    put_u32(out, static_cast<std::uint32_t>(size));
    out.append(text, size);
}

// An attribute (a link's href, an image's src) as its source wrote it; md4c has already taken
// the escapes out, and entities in URLs stay as written (browsers accept them either way).
void put_attribute(std::string& out, const MD_ATTRIBUTE& attribute) {
    put_string(out, attribute.text ? attribute.text : "", attribute.text ? attribute.size : 0);
}

std::string& sink(void* user) { return *static_cast<std::string*>(user); }

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
    std::string& out = sink(user);
    out.push_back('B');
    out.push_back(static_cast<char>(type));
    switch (type) {
    case MD_BLOCK_H: out.push_back(static_cast<char>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level)); break;
    case MD_BLOCK_CODE: put_attribute(out, static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang); break;
    case MD_BLOCK_OL: put_u32(out, static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start); break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: out.push_back(static_cast<char>(static_cast<MD_BLOCK_TD_DETAIL*>(detail)->align)); break;
    default: break;
    }
    return 0;
}

int leave_block(MD_BLOCKTYPE type, void*, void* user) {
    sink(user).push_back('b');
    sink(user).push_back(static_cast<char>(type));
    return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
    std::string& out = sink(user);
    out.push_back('S');
    out.push_back(static_cast<char>(type));
    if (type == MD_SPAN_A) put_attribute(out, static_cast<MD_SPAN_A_DETAIL*>(detail)->href);
    if (type == MD_SPAN_IMG) put_attribute(out, static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src);
    return 0;
}

int leave_span(MD_SPANTYPE type, void*, void* user) {
    sink(user).push_back('s');
    sink(user).push_back(static_cast<char>(type));
    return 0;
}

int text(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
    std::string& out = sink(user);
    out.push_back('T');
    out.push_back(static_cast<char>(type));
    put_string(out, text, size);
    return 0;
}

}  // namespace

unsigned parser_flags() { return MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML; }

bool parse(const char* markdown, std::size_t size, std::string& out) {
    MD_PARSER parser{};
    parser.flags = parser_flags();
    parser.enter_block = enter_block;
    parser.leave_block = leave_block;
    parser.enter_span = enter_span;
    parser.leave_span = leave_span;
    parser.text = text;
    return md_parse(markdown, static_cast<MD_SIZE>(size), &parser, &out) == 0;
}

}  // namespace imquiz::md4c_events

namespace imquiz {

// markdown.h: natively, md4c runs right here.
std::string markdown_events(std::string_view markdown) {
    std::string events;
    md4c_events::parse(markdown.data(), markdown.size(), events);
    return events;
}

}  // namespace imquiz
