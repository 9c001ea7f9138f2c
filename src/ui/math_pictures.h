// One frame's use of typeset formulas' textures (app/math.h, MathFormulas::pictures): the canvas
// asks while it draws (texture()); after the frame the app is told what was drawn and what was
// missing (app::update_math_pictures), and decodes that for the next frame. A frame never waits
// for a picture: until one has come, the formula's place is kept and its TeX is in the mirror.
#pragma once

#include "app/math.h"

#include <cstdint>
#include <string>
#include <vector>

namespace imquiz::ui {

struct MathPictures {
    std::vector<std::string> drawn;              // picture keys drawn (or wanted) this frame
    std::vector<app::WantedMathPicture> wanted;  // not there, not asked for yet

    // The texture of `formula` (app::formula_key `key`) at width x height device pixels, 0 when
    // it is not there yet.
    std::uint32_t texture(const app::MathFormulas& math, const std::string& key, const app::TypesetFormula& formula,
                          int width, int height);
};

}  // namespace imquiz::ui
