// The images of the active Markdown bank's texts: fetched beside the bank when it opens, checked
// as quizc checks them (engine/image_file.h), decoded by the platform into textures. An image
// that cannot be shown is its alt text and the reason, never a broken screen: the rest of the
// bank works.
#include "app/app_internal.h"
#include "app/player.h"

#include "engine/image_file.h"

#include <algorithm>

namespace imquiz::app {

namespace {

// Textures are device pixels; a picture is never decoded bigger than a wide column shows it
// (its full-size view then scales it up): fifty 4096 px photos would be 3 GB of GPU memory.
constexpr float max_shown_css_width = 1280.0f;

void forget_pictures(AppState& state) {
    for (const Picture& picture : state.pictures)
        if (picture.texture != 0) platform::free_picture(picture.texture);
    state.pictures.clear();
    state.viewing_picture.clear();
}

void fail(Picture& picture, std::string problem) {
    picture.state = Picture::State::Failed;
    picture.problem = std::move(problem);
}

void decode(Picture& picture, const ImageFile& file, const std::string& bytes) {
    int viewport_width = 0, viewport_height = 0;
    float ratio = 1;
    platform::viewport_size(viewport_width, viewport_height, ratio);
    const float shown_width = std::min(static_cast<float>(file.width), max_shown_css_width);
    float scale = shown_width * std::max(1.0f, ratio) / static_cast<float>(file.width);
    if (file.format != ImageFile::Format::Svg) scale = std::min(scale, 1.0f);  // a bitmap has the pixels it has
    float side = static_cast<float>(std::max(file.width, file.height)) * scale;
    if (side > static_cast<float>(max_image_side)) scale *= static_cast<float>(max_image_side) / side;
    const int pixel_width = std::max(1, static_cast<int>(static_cast<float>(file.width) * scale + 0.5f));
    const int pixel_height = std::max(1, static_cast<int>(static_cast<float>(file.height) * scale + 0.5f));
    picture.width = file.width;
    picture.height = file.height;
    picture.state = Picture::State::Decoding;
    picture.request =
        platform::start_picture_decode(bytes, mime_type(file.format), pixel_width, pixel_height, picture.url);
}

}  // namespace

void fetch_pictures(AppState& state, int bank_index) {
    if (!rich_player) return;
    if (state.pictures_bank == bank_index) return;
    forget_pictures(state);
    state.pictures_bank = bank_index;
    if (bank_index < 0 || bank_index >= static_cast<int>(state.banks.size())) return;
    const BankSlot& slot = state.banks[static_cast<std::size_t>(bank_index)];
    if (!slot.bank) return;
    for (const ImageReference& image : slot.bank->images) {
        Picture picture;
        picture.source = image.source;
        picture.path = image.path;
        picture.url = resolve_url(slot.url, image.source);
        picture.request = platform::start_fetch(picture.url);
        state.pictures.push_back(std::move(picture));
    }
}

void refetch_pictures(AppState& state) {
    const int bank_index = state.pictures_bank;
    state.pictures_bank = -1;
    fetch_pictures(state, bank_index);
}

bool take_decoded_pictures(AppState& state) {
    bool changed = false;
    platform::DecodedPicture decoded;
    while (platform::take_decoded_picture(decoded)) {
        auto found = std::find_if(state.pictures.begin(), state.pictures.end(), [&](const Picture& p) {
            return p.state == Picture::State::Decoding && p.request == decoded.request_id;
        });
        if (found == state.pictures.end() && claim_math_picture(state, decoded)) {  // a formula's
            changed = true;
            continue;
        }
        if (found == state.pictures.end()) {  // the bank closed while it was decoding
            if (decoded.texture != 0) platform::free_picture(decoded.texture);
            continue;
        }
        if (decoded.texture == 0) {
            fail(*found, "could not be shown: " + (decoded.error.empty() ? std::string("the browser could not decode it") : decoded.error));
        } else {
            found->state = Picture::State::Ready;
            found->texture = decoded.texture;
        }
        changed = true;
    }
    return changed;
}

bool update_pictures(AppState& state) {
    if (!rich_player) return false;
    bool changed = false;
    if (state.pictures_bank != state.active_bank) {
        fetch_pictures(state, state.active_bank);
        changed = true;
    }
    // Pictures asked for in this poll (by a bank read or opened just now) that were already here,
    // fetched by the page with the bank, are taken and decoded now: this frame can draw them.
    changed |= take_fetch_results(state);
    changed |= take_decoded_pictures(state);
    return changed;
}

bool take_picture_file(AppState& state, platform::FetchResult& result) {
    if (!rich_player) return false;
    for (Picture& picture : state.pictures) {
        if (picture.state != Picture::State::Fetching || picture.request != result.request_id) continue;
        if (result.http_status == 404) {
            fail(picture, "is not there: " + picture.url + " was not found");
        } else if (result.http_status < 200 || result.http_status >= 300) {
            fail(picture, "could not be fetched: " + (result.error.empty() ? "no answer" : result.error));
        } else {
            ImageCheck check = check_image_file(result.body, result.body.size());
            if (check.file) decode(picture, *check.file, result.body);
            else fail(picture, check.problem);
        }
        return true;
    }
    return false;
}

}  // namespace imquiz::app
