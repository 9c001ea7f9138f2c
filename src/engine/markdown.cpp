// What an author must fix in a text, and how the web's Markdown module hands a text to the app.
#include "engine/markdown.h"

#include <cstdint>

namespace imquiz {

namespace {

// ---- The codec: every number a 4-byte little-endian word, every string its length and bytes.

void put(std::string& out, std::uint32_t n) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
}
void put(std::string& out, const std::string& s) {
    put(out, static_cast<std::uint32_t>(s.size()));
    out += s;
}
void put(std::string& out, const std::vector<Inline>& runs) {
    put(out, static_cast<std::uint32_t>(runs.size()));
    for (const Inline& run : runs) {
        put(out, static_cast<std::uint32_t>(run.kind) | static_cast<std::uint32_t>(run.style) << 8);
        put(out, run.text);
        put(out, run.link);
    }
}

// Reads what put() wrote; the first short read ends everything (all later reads give zeros).
class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}
    bool ok() const { return ok_; }
    std::uint32_t number() {
        if (!ok_ || bytes_.size() - at_ < 4) return ok_ = false, 0;
        std::uint32_t n = 0;
        for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes_[at_++])) << (8 * i);
        return n;
    }
    // A count of things still to read, each at least `least` bytes: never more than could fit.
    std::uint32_t count(std::size_t least) {
        std::uint32_t n = number();
        if (ok_ && n > (bytes_.size() - at_) / least) return ok_ = false, 0;
        return n;
    }
    std::string string() {
        std::uint32_t size = number();
        if (!ok_ || size > bytes_.size() - at_) return ok_ = false, std::string();
        std::string s(bytes_.substr(at_, size));
        at_ += size;
        return s;
    }
    std::vector<Inline> runs() {
        std::vector<Inline> out(count(12));
        for (Inline& run : out) {
            std::uint32_t kind = number();
            run.kind = static_cast<Inline::Kind>(std::min<std::uint32_t>(kind & 0xFF, 5));
            run.style = static_cast<std::uint8_t>((kind >> 8) & 7);
            run.text = string();
            run.link = string();
        }
        return ok_ ? out : std::vector<Inline>();
    }

private:
    std::string_view bytes_;
    std::size_t at_ = 0;
    bool ok_ = true;
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
            if (run.text.find_first_not_of(" \t\n") == std::string::npos)
                problems.push_back("the image " + run.link +
                                   " has no alt text: say what it shows, as in ![a schedule of four stages](" + run.link +
                                   ")");
            std::string problem = image_source_problem(run.link);
            if (!problem.empty()) problems.push_back(std::move(problem));
        } else if (!run.link.empty()) {
            const std::string target = lower(run.link);
            if (!starts_with(target, "https://") && !starts_with(target, "http://") && !starts_with(target, "mailto:"))
                problems.push_back("the link \"" + run.link + "\" must start with https://, http:// or mailto:");
        }
    }
}

}  // namespace

std::string image_source_problem(const std::string& link) {
    const std::string source = lower(link);
    std::string path = source.substr(0, source.find_first_of("?#"));
    std::size_t dot = path.rfind('.');
    std::string extension = dot == std::string::npos ? "" : path.substr(dot + 1);
    if (source.empty() || source.find(':') != std::string::npos || starts_with(source, "/") || starts_with(source, "\\"))
        return "the image \"" + link +
               "\" is not a file beside the bank: write a path relative to the bank file, like images/schedule.svg";
    if (extension != "png" && extension != "jpg" && extension != "jpeg" && extension != "webp" && extension != "svg")
        return "the image " + link + " is not a PNG, JPEG, WebP or SVG file";
    return {};
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


std::string encode_parsed_markdown(const ParsedMarkdown& parsed) {
    std::string out;
    put(out, static_cast<std::uint32_t>(parsed.text.blocks.size()));
    for (const Block& block : parsed.text.blocks) {
        put(out, static_cast<std::uint32_t>(block.kind) | static_cast<std::uint32_t>(block.level) << 8 |
                     static_cast<std::uint32_t>(block.quote) << 16);
        put(out, static_cast<std::uint32_t>(block.depth));
        put(out, block.marker);
        put(out, block.language);
        put(out, block.code);
        put(out, block.inlines);
        put(out, static_cast<std::uint32_t>(block.rows.size()));
        for (const auto& row : block.rows) {
            put(out, static_cast<std::uint32_t>(row.size()));
            for (const auto& cell : row) put(out, cell);
        }
        put(out, static_cast<std::uint32_t>(block.header_rows));
        put(out, block.align);
    }
    put(out, static_cast<std::uint32_t>(parsed.problems.size()));
    for (const std::string& problem : parsed.problems) put(out, problem);
    return out;
}

ParsedMarkdown decode_parsed_markdown(std::string_view bytes) {
    Reader in(bytes);
    ParsedMarkdown parsed;
    std::vector<Block>& blocks = parsed.text.blocks;
    blocks.resize(in.count(36));
    for (Block& block : blocks) {
        std::uint32_t kind = in.number();
        block.kind = static_cast<Block::Kind>(std::min<std::uint32_t>(kind & 0xFF, 4));
        block.level = static_cast<int>((kind >> 8) & 7);
        block.quote = (kind >> 16) & 1;
        block.depth = static_cast<int>(std::min<std::uint32_t>(in.number(), 1000));
        block.marker = in.string();
        block.language = in.string();
        block.code = in.string();
        block.inlines = in.runs();
        block.rows.resize(in.count(4));
        for (auto& row : block.rows) {
            row.resize(in.count(4));
            for (auto& cell : row) cell = in.runs();
        }
        block.header_rows = in.number();
        block.align = in.string();
    }
    parsed.problems.resize(in.count(4));
    for (std::string& problem : parsed.problems) problem = in.string();
    if (!in.ok()) return {};
    return parsed;
}

}  // namespace imquiz
