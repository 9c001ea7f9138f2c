// Typeset formulas as textures, at the size and device pixel ratio they are drawn at. The canvas
// asks while it draws (texture()); what it lacks is decoded after the frame (program/main.cpp,
// platform::start_picture_decode) and drawn from the next one on: a frame never waits for a
// picture, and until one has come the formula shows as its TeX.
#pragma once

#include "app/math.h"

#include <cstdint>
#include <string>
#include <vector>

namespace imquiz::ui {

struct MathPictures {
    struct Picture {
        std::string key;            // the formula's, and its size
        int request = 0;            // the decode on its way; 0 once answered
        std::uint32_t texture = 0;  // 0: not there (yet, or it could not be drawn)
        bool failed = false;
        int last_used = 0;          // the frame that last drew it
    };
    struct Wanted {
        std::string key;
        std::string svg;
        int width = 0, height = 0;  // device pixels
    };
    std::vector<Picture> pictures;            // a list: few at a time, and less code than a map
    std::vector<Wanted> wanted;               // asked for this frame, not started yet
    int frame = 0;

    // The texture of `formula` (kept under `key`, app::formula_key) at width x height device
    // pixels, 0 when it is not there yet: then it is wanted.
    std::uint32_t texture(const std::string& key, const app::TypesetFormula& formula, int width, int height);
};

}  // namespace imquiz::ui
