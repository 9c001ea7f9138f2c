#include "engine/image_file.h"

#include <cstdint>
#include <cstdlib>

namespace imquiz {

namespace {

std::uint32_t byte(std::string_view b, std::size_t i) { return i < b.size() ? static_cast<unsigned char>(b[i]) : 0; }
std::uint32_t big16(std::string_view b, std::size_t i) { return byte(b, i) << 8 | byte(b, i + 1); }
std::uint32_t big32(std::string_view b, std::size_t i) { return big16(b, i) << 16 | big16(b, i + 2); }
std::uint32_t little16(std::string_view b, std::size_t i) { return byte(b, i) | byte(b, i + 1) << 8; }
std::uint32_t little24(std::string_view b, std::size_t i) { return little16(b, i) | byte(b, i + 2) << 16; }

bool starts(std::string_view b, std::size_t at, std::string_view what) {
    return at <= b.size() && b.substr(at, what.size()) == what;
}

std::optional<ImageFile> png(std::string_view b) {
    if (!starts(b, 0, "\x89PNG\r\n\x1a\n") || !starts(b, 12, "IHDR") || b.size() < 24) return std::nullopt;
    return ImageFile{ImageFile::Format::Png, static_cast<int>(big32(b, 16) & 0x7fffffff),
                     static_cast<int>(big32(b, 20) & 0x7fffffff)};
}

// The first frame header (SOFn) after the segments before it; the size is there, not at a fixed place.
std::optional<ImageFile> jpeg(std::string_view b) {
    if (!starts(b, 0, "\xff\xd8")) return std::nullopt;
    std::size_t at = 2;
    while (at + 9 < b.size()) {
        if (byte(b, at) != 0xff) return std::nullopt;
        const std::uint32_t marker = byte(b, at + 1);
        if (marker == 0xff) { ++at; continue; }  // fill bytes
        if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
            return ImageFile{ImageFile::Format::Jpeg, static_cast<int>(big16(b, at + 7)), static_cast<int>(big16(b, at + 5))};
        if (marker == 0xd9 || marker == 0xda) return std::nullopt;  // image data before any frame header
        at += 2 + big16(b, at + 2);
    }
    return std::nullopt;
}

std::optional<ImageFile> webp(std::string_view b) {
    if (!starts(b, 0, "RIFF") || !starts(b, 8, "WEBP") || b.size() < 30) return std::nullopt;
    using F = ImageFile::Format;
    if (starts(b, 12, "VP8 ") && starts(b, 23, "\x9d\x01\x2a"))  // lossy: 14-bit sizes after the start code
        return ImageFile{F::Webp, static_cast<int>(little16(b, 26) & 0x3fff), static_cast<int>(little16(b, 28) & 0x3fff)};
    if (starts(b, 12, "VP8L") && byte(b, 20) == 0x2f) {  // lossless: two 14-bit sizes minus one
        const std::uint32_t bits = little16(b, 21) | little16(b, 23) << 16;
        return ImageFile{F::Webp, static_cast<int>((bits & 0x3fff) + 1), static_cast<int>(((bits >> 14) & 0x3fff) + 1)};
    }
    if (starts(b, 12, "VP8X"))  // extended: 24-bit sizes minus one
        return ImageFile{F::Webp, static_cast<int>(little24(b, 24) + 1), static_cast<int>(little24(b, 27) + 1)};
    return std::nullopt;
}

// ---- SVG: the root element's width, height and viewBox ----

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The opening tag of the root <svg> element, after a byte order mark, the XML declaration,
// comments, a doctype and processing instructions; "" when the file is not SVG.
std::string_view svg_root_tag(std::string_view b) {
    std::size_t at = starts(b, 0, "\xef\xbb\xbf") ? 3 : 0;
    // An SVG's prologue is short; a megabyte of comments before the root is not an image.
    for (int items = 0; items < 64; ++items) {
        while (at < b.size() && space(b[at])) ++at;
        if (!starts(b, at, "<")) return {};
        std::string_view end_marker = starts(b, at, "<!--") ? "-->" : starts(b, at, "<?") || starts(b, at, "<!") ? ">" : "";
        if (end_marker.empty()) break;
        std::size_t end = b.find(end_marker, at + 2);
        if (end == std::string_view::npos) return {};
        at = end + end_marker.size();
    }
    if (!starts(b, at, "<svg") || at + 4 >= b.size() || !(space(b[at + 4]) || b[at + 4] == '>' || b[at + 4] == '/'))
        return {};
    std::size_t end = b.find('>', at);
    return end == std::string_view::npos ? std::string_view() : b.substr(at, end - at);
}

std::string_view attribute(std::string_view tag, std::string_view name) {
    for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
        if (at == 0 || !space(tag[at - 1])) continue;
        std::size_t i = at + name.size();
        while (i < tag.size() && space(tag[i])) ++i;
        if (i >= tag.size() || tag[i] != '=') continue;
        ++i;
        while (i < tag.size() && space(tag[i])) ++i;
        if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
        std::size_t close = tag.find(tag[i], i + 1);
        if (close == std::string_view::npos) return {};
        return tag.substr(i + 1, close - i - 1);
    }
    return {};
}

// A length in CSS pixels: a number, alone or in px; 0 for anything else (percentages, em).
double length(std::string_view value) {
    std::string text(value);
    char* end = nullptr;
    double number = std::strtod(text.c_str(), &end);
    std::string_view unit(end, static_cast<std::size_t>(text.c_str() + text.size() - end));
    while (!unit.empty() && space(unit.back())) unit.remove_suffix(1);
    return end != text.c_str() && (unit.empty() || unit == "px") && number > 0 ? number : 0;
}

std::optional<ImageFile> svg(std::string_view b, std::string& problem) {
    std::string_view tag = svg_root_tag(b);
    if (tag.empty()) return std::nullopt;
    double width = length(attribute(tag, "width")), height = length(attribute(tag, "height"));
    std::string box(attribute(tag, "viewBox"));
    for (char& c : box)
        if (c == ',') c = ' ';
    double box_width = 0, box_height = 0;
    {
        const char* at = box.c_str();
        char* end = nullptr;
        double numbers[4] = {0, 0, 0, 0};
        int read = 0;
        for (; read < 4; ++read, at = end) {
            numbers[read] = std::strtod(at, &end);
            if (end == at) break;
        }
        if (read == 4 && numbers[2] > 0 && numbers[3] > 0) box_width = numbers[2], box_height = numbers[3];
    }
    // A missing side follows the viewBox's proportions, as a browser sizes it.
    if (width <= 0 && height > 0 && box_width > 0) width = height * box_width / box_height;
    if (height <= 0 && width > 0 && box_width > 0) height = width * box_height / box_width;
    if (width <= 0 || height <= 0) width = box_width, height = box_height;
    if (width <= 0 || height <= 0) {
        problem = "is an SVG file without a size: give its <svg> element a viewBox (or width and height in px)";
        return ImageFile{ImageFile::Format::Svg, 0, 0};
    }
    return ImageFile{ImageFile::Format::Svg, static_cast<int>(width + 0.5), static_cast<int>(height + 0.5)};
}

std::string mebibytes(std::size_t bytes) {
    const long tenths = static_cast<long>((bytes * 10 + 512 * 1024) / (1024 * 1024));
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

}  // namespace

const char* mime_type(ImageFile::Format format) {
    switch (format) {
    case ImageFile::Format::Png: return "image/png";
    case ImageFile::Format::Jpeg: return "image/jpeg";
    case ImageFile::Format::Webp: return "image/webp";
    case ImageFile::Format::Svg: return "image/svg+xml";
    }
    return "application/octet-stream";
}

ImageCheck check_image_file(std::string_view bytes, std::size_t file_size) {
    ImageCheck check;
    if (file_size > max_image_file_bytes) {
        check.problem = "is " + mebibytes(file_size) + ": an image may be at most 2 MiB (make it smaller, or use SVG for a diagram)";
        return check;
    }
    std::optional<ImageFile> file = png(bytes);
    if (!file) file = jpeg(bytes);
    if (!file) file = webp(bytes);
    if (!file) file = svg(bytes, check.problem);
    if (!check.problem.empty()) return check;
    if (!file) {
        check.problem = "is not a PNG, JPEG, WebP or SVG file (its first bytes are none of these)";
        return check;
    }
    if (file->width <= 0 || file->height <= 0) {
        check.problem = "is broken: its header gives no size";
        return check;
    }
    if (file->width > max_image_side || file->height > max_image_side) {
        check.problem = "is " + std::to_string(file->width) + " x " + std::to_string(file->height) +
                        " px: an image may be at most 4096 px a side";
        return check;
    }
    check.file = file;
    return check;
}

std::vector<Diagnostic> image_file_problems(const Bank& bank, const std::string& bank_file, const ImageFileReader& read) {
    std::vector<Diagnostic> problems;
    const std::size_t slash = bank_file.find_last_of("/\\");
    const std::string folder = slash == std::string::npos ? "" : bank_file.substr(0, slash + 1);
    for (const ImageReference& image : bank.images) {
        const std::string path = folder + image.source.substr(0, image.source.find_first_of("?#"));
        const ImageFileRead file = read(path);
        std::string why = file.exists ? check_image_file(file.bytes, file.size).problem : "is not there: no file " + path;
        if (why.empty()) continue;
        Diagnostic problem;
        problem.file = bank_file;
        problem.path = image.path;
        problem.message = "the image " + image.source + " " + why;
        problems.push_back(std::move(problem));
    }
    return problems;
}

}  // namespace imquiz
