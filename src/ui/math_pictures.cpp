#include "ui/math_pictures.h"

namespace imquiz::ui {

std::uint32_t MathPictures::texture(const std::string& key, const app::TypesetFormula& formula, int width, int height) {
    std::string sized = key + "@" + std::to_string(width) + "x" + std::to_string(height);
    for (Picture& picture : pictures) {
        if (picture.key != sized) continue;
        picture.last_used = frame;
        return picture.texture;
    }
    Picture picture;
    picture.key = sized;
    picture.last_used = frame;
    pictures.push_back(std::move(picture));
    wanted.push_back({sized, app::formula_svg(formula, width, height), width, height});
    return 0;
}

}  // namespace imquiz::ui
