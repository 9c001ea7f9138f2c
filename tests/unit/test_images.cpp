// Images of Markdown texts: what a file is and how big, read from its first bytes (the checks
// quizc and the app share); which files a bank needs; and the app fetching, checking and
// decoding them, and showing one full size.
#include "app_test_support.h"

#include "app/app.h"
#include "app/page_protocol.h"
#include "app/screen_model.h"
#include "engine/bank_loader.h"
#include "engine/image_file.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

using namespace imquiz;

namespace {

std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}
std::string le16(std::uint32_t v) { return {static_cast<char>(v), static_cast<char>(v >> 8)}; }
std::string le24(std::uint32_t v) { return le16(v) + static_cast<char>(v >> 16); }

// Just enough of each format for its header: the checks read no further.
std::string png(std::uint32_t w, std::uint32_t h) {
    return std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + be32(w) + be32(h) + std::string("\x08\x06\0\0\0", 5) + be32(0);
}
std::string jpeg(std::uint32_t w, std::uint32_t h) {
    std::string app0 = std::string("\xff\xe0", 2) + std::string("\x00\x10", 2) + std::string("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", 14);
    std::string sof = std::string("\xff\xc2\x00\x11\x08", 5) + static_cast<char>(h >> 8) + static_cast<char>(h) +
                      static_cast<char>(w >> 8) + static_cast<char>(w) + std::string("\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01", 10);
    return std::string("\xff\xd8", 2) + app0 + sof + std::string("\xff\xd9", 2);
}
std::string riff(const std::string& chunk) { return "RIFF" + std::string(4, '\0') + "WEBP" + chunk; }
std::string webp_lossy(std::uint32_t w, std::uint32_t h) {
    return riff("VP8 " + std::string(4, '\0') + std::string(3, '\0') + "\x9d\x01\x2a" + le16(w) + le16(h) + std::string(8, '\0'));
}
std::string webp_lossless(std::uint32_t w, std::uint32_t h) {
    const std::uint32_t bits = (w - 1) | (h - 1) << 14;
    return riff("VP8L" + std::string(4, '\0') + "\x2f" + le16(bits & 0xffff) + le16(bits >> 16) + std::string(8, '\0'));
}
std::string webp_extended(std::uint32_t w, std::uint32_t h) {
    return riff("VP8X" + std::string(4, '\0') + std::string(4, '\0') + le24(w - 1) + le24(h - 1) + std::string(4, '\0'));
}

ImageCheck check(const std::string& bytes) { return check_image_file(bytes, bytes.size()); }

}  // namespace

TEST_CASE("image files: each of the four formats is known by its first bytes, with its size") {
    struct Case {
        std::string bytes;
        ImageFile::Format format;
        int width, height;
    };
    using F = ImageFile::Format;
    const Case cases[] = {
        {png(640, 480), F::Png, 640, 480},
        {jpeg(1024, 768), F::Jpeg, 1024, 768},
        {webp_lossy(300, 200), F::Webp, 300, 200},
        {webp_lossless(4096, 1), F::Webp, 4096, 1},
        {webp_extended(1920, 1080), F::Webp, 1920, 1080},
        {R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 120"><rect/></svg>)", F::Svg, 400, 120},
        {R"(<svg width="320px" height='90' xmlns="http://www.w3.org/2000/svg"/>)", F::Svg, 320, 90},
        // One side and a viewBox: the other follows its proportions, as in a browser.
        {R"(<svg xmlns="http://www.w3.org/2000/svg" width="200" viewBox="0,0,40,10"/>)", F::Svg, 200, 50},
        // Units a file cannot be measured in without a page: the viewBox decides.
        {R"(<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="12em" viewBox="0 0 50 25"/>)", F::Svg, 50, 25},
        {"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- a <svg> in a comment is not the root -->\n<!DOCTYPE svg>\n"
         "<svg viewBox=\"0 0 12 34\"></svg>",
         F::Svg, 12, 34},
    };
    for (const Case& c : cases) {
        INFO(c.bytes.substr(0, 60));
        ImageCheck found = check(c.bytes);
        CHECK(found.problem.empty());
        REQUIRE(found.file);
        CHECK(found.file->format == c.format);
        CHECK(found.file->width == c.width);
        CHECK(found.file->height == c.height);
    }
    CHECK(std::string(mime_type(F::Svg)) == "image/svg+xml");
    CHECK(std::string(mime_type(F::Webp)) == "image/webp");
}

TEST_CASE("image files: too big, too wide, unknown or shapeless files are refused, saying why") {
    CHECK(check_image_file("", 2 * 1024 * 1024 + 1).problem ==
          "is 2.0 MiB: an image may be at most 2 MiB (make it smaller, or use SVG for a diagram)");
    CHECK(check_image_file(png(10, 10), 5 * 1024 * 1024 + 300 * 1024).problem.rfind("is 5.3 MiB:", 0) == 0);
    CHECK(check_image_file(png(10, 10), 2 * 1024 * 1024).problem.empty());  // at the limit: fine
    CHECK(check(png(4097, 10)).problem == "is 4097 x 10 px: an image may be at most 4096 px a side");
    CHECK(check(jpeg(10, 5000)).problem == "is 10 x 5000 px: an image may be at most 4096 px a side");
    CHECK(check(webp_extended(1 << 24, 1)).problem.find("at most 4096 px a side") != std::string::npos);
    CHECK(check(png(4096, 4096)).problem.empty());
    CHECK(check("GIF89a\x01\0\x01\0").problem == "is not a PNG, JPEG, WebP or SVG file (its first bytes are none of these)");
    CHECK(check("<html><body>404 Not Found</body></html>").problem.find("not a PNG, JPEG, WebP or SVG") != std::string::npos);
    CHECK(check("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>").problem ==
          "is an SVG file without a size: give its <svg> element a viewBox (or width and height in px)");
    CHECK(check(png(0, 10)).problem == "is broken: its header gives no size");
    CHECK(check("").problem.find("not a PNG") != std::string::npos);
}

TEST_CASE("image files: every cut of a header, and hostile headers, are read safely") {
    for (const std::string& whole : {png(10, 20), jpeg(30, 40), webp_lossy(5, 6), webp_lossless(7, 8), webp_extended(9, 10),
                                     std::string("<svg viewBox=\"0 0 1 2\"/>")}) {
        for (std::size_t cut = 0; cut < whole.size(); ++cut) {
            // A copy of exactly `cut` bytes, so that a read past the end is a read past the heap block.
            std::string part(whole.data(), cut);
            ImageCheck found = check(part);
            CHECK((found.file.has_value() != !found.problem.empty()));
        }
    }
    // A JPEG whose segments claim more than there is, or loop on fill bytes.
    CHECK_FALSE(check(std::string("\xff\xd8\xff\xe0\xff\xff", 6)).file);
    CHECK_FALSE(check(std::string("\xff\xd8") + std::string(10000, '\xff')).file);
    // A megabyte of comments before the root: not an image, answered at once.
    std::string prologue;
    for (int i = 0; i < 100000; ++i) prologue += "<!---->";
    CHECK_FALSE(check(prologue + "<svg viewBox=\"0 0 1 1\"/>").file);
    // Attributes that only look like ours.
    CHECK(check("<svg data-width=\"9000\" xwidth=\"9000\" viewBox=\"0 0 3 4\"/>").file->width == 3);
    CHECK(check("<svgz viewBox=\"0 0 3 4\"/>").problem.find("not a PNG") != std::string::npos);
}

TEST_CASE("image files: a bank lists each image once, at its first text; only files beside it") {
    const std::string bank_text = R"json({"format": "imquiz-bank", "version": 1, "id": "pictures", "textFormat": "markdown",
        "title": "Pictures", "languages": ["en", "ru"], "defaultLanguage": "en",
        "questions": [{"id": "q", "type": "true_false", "answer": true,
          "prompt": {"en": "![a schedule](images/schedule.svg) and ![a chart](images/chart.png?v=2)",
                     "ru": "![расписание](images/schedule.svg)"},
          "explanation": "![the schedule again](images/schedule.svg) ![bubbles](images/bubbles.webp)"}]})json";
    BankLoadResult loaded = load_bank(bank_text, "quizzes/pictures.json");
    REQUIRE(loaded.bank);
    const auto& images = loaded.bank->images;
    REQUIRE(images.size() == 3);
    CHECK(images[0].source == "images/schedule.svg");
    CHECK(images[0].path == "questions[0].prompt.en");
    CHECK(images[1].source == "images/chart.png?v=2");
    CHECK(images[2].source == "images/bubbles.webp");
    CHECK(images[2].path == "questions[0].explanation");

    // What quizc prints for them, from whatever reads the disk.
    std::vector<std::string> asked;
    std::vector<Diagnostic> problems = image_file_problems(*loaded.bank, "quizzes/pictures.json", [&](const std::string& path) {
        asked.push_back(path);
        ImageFileRead file;
        file.exists = path != "quizzes/images/bubbles.webp";
        file.bytes = path == "quizzes/images/chart.png" ? png(5000, 5000) : "<svg viewBox=\"0 0 10 10\"/>";
        file.size = file.bytes.size();
        return file;
    });
    CHECK(asked == std::vector<std::string>{"quizzes/images/schedule.svg", "quizzes/images/chart.png", "quizzes/images/bubbles.webp"});
    REQUIRE(problems.size() == 2);
    CHECK(format_diagnostic_with_severity(problems[0]) ==
          "quizzes/pictures.json:questions[0].prompt.en: error: the image images/chart.png?v=2 is 5000 x 5000 px: an image may "
          "be at most 4096 px a side");
    CHECK(format_diagnostic_with_severity(problems[1]) ==
          "quizzes/pictures.json:questions[0].explanation: error: the image images/bubbles.webp is not there: no file "
          "quizzes/images/bubbles.webp");

    // A plain bank's texts are words: no images, whatever they look like.
    std::string plain = bank_text;
    plain.replace(plain.find("\"textFormat\": \"markdown\","), 26, "");
    REQUIRE(load_bank(plain, "plain.json").bank);
    CHECK(load_bank(plain, "plain.json").bank->images.empty());
}

namespace {

const char* picture_bank = R"json({"format": "imquiz-bank", "version": 1, "id": "pictures", "textFormat": "markdown",
    "title": "Pictures", "languages": ["en"], "defaultLanguage": "en",
    "questions": [{"id": "q", "type": "true_false", "answer": true,
      "prompt": "Which stage idles first?\n\n![a schedule of four stages](images/schedule.svg)\n\n![a photo](images/photo.jpg) ![gone](images/gone.png) ![a fake](images/fake.webp)",
      "explanation": "See ![a schedule of four stages](images/schedule.svg)."}]})json";

app::AppState open_picture_bank() {
    namespace memory = platform::memory;
    testing::fresh_world({{"quiz", "pictures"}}, false);
    memory::World& world = memory::world();
    world.files["quizzes/index.json"] =
        R"({"format": "imquiz-catalog", "version": 1, "banks": [{"id": "pictures", "file": "pictures.json"}]})";
    world.files["quizzes/pictures.json"] = picture_bank;
    world.files["quizzes/images/schedule.svg"] = R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 160"></svg>)";
    world.files["quizzes/images/photo.jpg"] = jpeg(3000, 2000);
    world.files["quizzes/images/fake.webp"] = "<html>a login page</html>";
    app::AppState state;
    app::start(state);
    for (int i = 0; i < 6; ++i) {
        memory::deliver_fetches();
        app::poll(state);
    }
    return state;
}

const app::PictureModel* picture(const app::ScreenModel& screen, const std::string& source) {
    for (const auto& p : screen.pictures)
        if (p.source == source) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("images in the app: fetched beside the bank, checked, decoded at the size they are shown") {
    namespace memory = platform::memory;
    app::AppState state = open_picture_bank();
    memory::World& world = memory::world();
    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(screen.question.present);
    // Each file once, although the schedule is shown twice.
    CHECK(std::count(world.fetched.begin(), world.fetched.end(), "quizzes/images/schedule.svg") == 1);
    REQUIRE(screen.pictures.size() == 4);

    const app::PictureModel* schedule = picture(screen, "images/schedule.svg");
    REQUIRE(schedule);
    CHECK(schedule->state == app::PictureModel::State::Ready);
    CHECK(schedule->url == "quizzes/images/schedule.svg");
    CHECK(schedule->width == 480);
    CHECK(schedule->height == 160);
    CHECK(schedule->texture != 0);
    // A 3000 px photo is decoded no wider than a wide column shows it, not at 3000 px.
    const app::PictureModel* photo = picture(screen, "images/photo.jpg");
    REQUIRE(photo);
    CHECK(photo->state == app::PictureModel::State::Ready);
    CHECK(photo->width == 3000);
    CHECK(std::count(world.picture_mimes.begin(), world.picture_mimes.end(), "image/jpeg") == 1);
    CHECK(std::count(world.picture_mimes.begin(), world.picture_mimes.end(), "image/svg+xml") == 1);
    CHECK(world.picture_mimes.size() == 2);  // nothing is decoded that failed its check

    const app::PictureModel* gone = picture(screen, "images/gone.png");
    REQUIRE(gone);
    CHECK(gone->state == app::PictureModel::State::Failed);
    CHECK(gone->problem == "the image images/gone.png is not there: quizzes/images/gone.png was not found");
    const app::PictureModel* fake = picture(screen, "images/fake.webp");
    REQUIRE(fake);
    CHECK(fake->state == app::PictureModel::State::Failed);
    CHECK(fake->problem.find("is not a PNG, JPEG, WebP or SVG file") != std::string::npos);

    // The page sees the same: the mirror draws an <img> of the url, or the alt text and why not.
    nlohmann::json page = nlohmann::json::parse(app::screen_to_page(state, screen));
    REQUIRE(page["pictures"].size() == 4);
    CHECK(page["pictures"][0]["state"] == "ready");
    CHECK(page["pictures"][0]["url"] == "quizzes/images/schedule.svg");
    CHECK(page["pictures"][2]["state"] == "failed");
    CHECK(page["pictureNotShown"] == "image not shown");
    CHECK(page["question"]["promptRich"][1]["runs"][0]["type"] == "image");
    CHECK(page["question"]["promptRich"][1]["runs"][0]["src"] == "images/schedule.svg");

    // Full size, and back: Esc closes it.
    app::Action open = app::Action::of(app::Action::Kind::OpenPicture);
    open.text = "images/schedule.svg";
    app::apply(state, open);
    screen = app::build_screen(state);
    REQUIRE(screen.viewer);
    CHECK(screen.viewer->alt == "a schedule of four stages");
    CHECK(screen.escape.kind == app::Action::Kind::ClosePicture);
    CHECK(nlohmann::json::parse(app::screen_to_page(state, screen))["viewer"]["close"]["action"]["type"] == "close-picture");
    app::apply(state, screen.escape);
    CHECK_FALSE(app::build_screen(state).viewer);
    // A picture that is not there cannot be opened.
    open.text = "images/gone.png";
    app::apply(state, open);
    CHECK_FALSE(app::build_screen(state).viewer);
    // The page may open one too (the mirror, tests), by its source.
    world.page_actions.push_back(R"({"type": "open-picture", "source": "images/photo.jpg"})");
    app::poll(state);
    REQUIRE(app::build_screen(state).viewer);
    CHECK(app::build_screen(state).viewer->source == "images/photo.jpg");

    // Leaving the quiz frees every texture.
    CHECK(world.live_pictures.size() == 2);
    app::apply(state, app::Action::of(app::Action::Kind::BackToCatalog));
    app::poll(state);
    CHECK(world.live_pictures.empty());
    CHECK(app::build_screen(state).pictures.empty());
}

TEST_CASE("images in the app: a picture the browser cannot decode is its alt text; the question works") {
    namespace memory = platform::memory;
    app::AppState state;
    {
        testing::fresh_world({{"quiz", "pictures"}}, false);
        memory::World& world = memory::world();
        world.pictures_decode = false;
        world.files["quizzes/index.json"] =
            R"({"format": "imquiz-catalog", "version": 1, "banks": [{"id": "pictures", "file": "pictures.json"}]})";
        world.files["quizzes/pictures.json"] = picture_bank;
        world.files["quizzes/images/schedule.svg"] = R"(<svg viewBox="0 0 480 160"></svg>)";
        app::start(state);
        for (int i = 0; i < 6; ++i) {
            memory::deliver_fetches();
            app::poll(state);
        }
    }
    app::ScreenModel screen = app::build_screen(state);
    REQUIRE(screen.question.present);
    const app::PictureModel* schedule = picture(screen, "images/schedule.svg");
    REQUIRE(schedule);
    CHECK(schedule->state == app::PictureModel::State::Failed);
    CHECK(schedule->problem == "the image images/schedule.svg could not be shown: the browser could not decode it");
    app::apply(state, app::Action::of(app::Action::Kind::Check));
    CHECK(memory::world().live_pictures.empty());
}
