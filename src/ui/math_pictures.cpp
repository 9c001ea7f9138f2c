#include "ui/math_pictures.h"

namespace imquiz::ui {

std::uint32_t MathPictures::texture(const app::MathFormulas& math, const std::string& key,
                                    const app::TypesetFormula& formula, int width, int height) {
    std::string sized = app::picture_key(key, width, height);
    drawn.push_back(sized);
    if (const app::MathPicture* picture = math.picture(sized)) return picture->texture;
    for (const auto& want : wanted)
        if (want.key == sized) return 0;
    wanted.push_back({sized, app::formula_svg(formula, width, height), width, height});
    return 0;
}

}  // namespace imquiz::ui
