// The image files of Markdown texts (`![alt](images/x.svg)`): what kind of file one is and how big
// it is, read from its first bytes, so that quizc and the app refuse the same files for the same
// reasons before anything tries to decode them. The engine reads no files: callers hand it bytes.
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// What a learner's device is asked to decode for one picture: a 4096 px side is 64 MiB of
// texture already, and a 2 MiB file is more than a phone should download for one question.
constexpr std::size_t max_image_file_bytes = 2 * 1024 * 1024;
constexpr int max_image_side = 4096;

struct ImageFile {
    enum class Format { Png, Jpeg, Webp, Svg };
    Format format = Format::Png;
    int width = 0, height = 0;  // pixels; an SVG's own size in CSS pixels (width/height, or viewBox)
};

const char* mime_type(ImageFile::Format format);

// The file, or why it cannot be shown, as the end of a sentence that starts with the image's
// name ("is 2.4 MiB: an image may be at most 2 MiB"). `bytes` is the file, or only its start when
// `file_size` is already over the limit. Never reads past `bytes`.
struct ImageCheck {
    std::optional<ImageFile> file;
    std::string problem;
};
ImageCheck check_image_file(std::string_view bytes, std::size_t file_size);

// A bank's image files on a disk (quizc validate, and the tests that print what it prints):
// `read` is given a file's path (the bank file's folder joined with the source) and answers
// whether it is a file, its size, and its bytes unless the size is already over the limit.
struct ImageFileRead {
    bool exists = false;
    std::size_t size = 0;
    std::string bytes;
};
using ImageFileReader = std::function<ImageFileRead(const std::string& path)>;
// One error per image of `bank` that the app could not show, at the JSON path of the first
// text that shows it: "the image images/x.png is not there: no file quizzes/images/x.png".
std::vector<Diagnostic> image_file_problems(const Bank& bank, const std::string& bank_file, const ImageFileReader& read);

}  // namespace imquiz
