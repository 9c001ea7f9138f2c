#include "ui/rich_text.h"

#include "app/player.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

namespace imquiz::ui {

namespace {

const Faces& faces_of(const UiContext& ui, TextSize size) {
    return size == TextSize::Heading ? ui.fonts.heading_faces : size == TextSize::Small ? ui.fonts.small_faces : ui.fonts.body_faces;
}

ImFont* face_for(const Faces& faces, const Inline& run) {
    if (run.kind == Inline::Kind::Code || run.kind == Inline::Kind::Math || run.kind == Inline::Kind::DisplayMath)
        return faces.mono;
    bool bold = run.style & Inline::Strong, italic = run.style & Inline::Emphasis;
    return bold && italic ? faces.bold_italic : bold ? faces.bold : italic ? faces.italic : faces.regular;
}

const char* next_utf8(const char* s, const char* end) {
    ++s;
    while (s < end && (static_cast<unsigned char>(*s) & 0xC0) == 0x80) ++s;
    return s;
}

const app::PictureModel* picture_of(const UiContext& ui, const Inline& run) {
    if (run.kind != Inline::Kind::Image || !ui.pictures) return nullptr;
    for (const app::PictureModel& picture : *ui.pictures)
        if (picture.source == run.link) return &picture;
    return nullptr;
}

// Lays out blocks top to bottom from `origin`, `width` wide, and draws them unless measuring.
// Positions are screen pixels (CSS pixels here: the atlas is drawn at 1 / device ratio).
class Layout {
public:
    // `interactive`: images are items of their own (not inside an answer card, which is one).
    Layout(const UiContext& ui, TextSize size, uint32_t color, ImVec2 origin, float width, bool draw, bool interactive)
        : ui_(ui), faces_(faces_of(ui, size)), body_(ui.fonts.body_faces), color_(color), origin_(origin),
          width_(width), draw_(draw), interactive_(interactive), list_(draw ? ImGui::GetWindowDrawList() : nullptr) {}

    app::Action action;          // a link activated this frame

    float blocks(const RichText& text, const char* id) {
        for (std::size_t i = 0; i < text.blocks.size(); ++i) {
            const Block& block = text.blocks[i];
            if (i > 0) y_ += block.depth > 0 && !block.marker.empty() && text.blocks[i - 1].depth > 0 ? ui_.px(4) : ui_.px(10);
            ImGui::PushID(static_cast<int>(i));
            block_index_ = i;
            one_block(block, id);
            ImGui::PopID();
        }
        return y_;
    }

private:
    float font_px(ImFont* font) const { return font->FontSize * ImGui::GetIO().FontGlobalScale; }

    void one_block(const Block& block, const char* id) {
        float indent = static_cast<float>(block.depth) * ui_.px(26) + (block.quote ? ui_.px(16) : 0.0f);
        float top = y_;
        const Faces& faces = block.kind == Block::Kind::Code || block.kind == Block::Kind::Table ? body_ : faces_;
        if (!block.marker.empty() && draw_) {
            ImFont* font = faces.regular;
            float size = font_px(font);
            float w = font->CalcTextSizeA(size, FLT_MAX, 0, block.marker.c_str()).x;
            list_->AddText(font, size, ImVec2(origin_.x + indent - ui_.px(8) - w, origin_.y + y_), ui_.palette.text_muted,
                           block.marker.c_str());
        }
        switch (block.kind) {
        case Block::Kind::Paragraph: paragraph(block.inlines, faces, indent, color_, 0); break;
        case Block::Kind::Heading: {
            Faces bold = faces;
            bold.regular = faces.bold;
            bold.italic = faces.bold_italic;
            paragraph(block.inlines, bold, indent, color_, 0);
            break;
        }
        case Block::Kind::Code: code_block(block, indent, id); break;
        case Block::Kind::Rule:
            if (draw_)
                list_->AddLine(ImVec2(origin_.x + indent, origin_.y + y_ + ui_.px(8)),
                               ImVec2(origin_.x + width_, origin_.y + y_ + ui_.px(8)), ui_.palette.border, ui_.px(1));
            y_ += ui_.px(16);
            break;
        case Block::Kind::Table: table(block, indent, id); break;
        }
        if (block.quote && draw_)
            list_->AddRectFilled(ImVec2(origin_.x + indent - ui_.px(14), origin_.y + top),
                                 ImVec2(origin_.x + indent - ui_.px(11), origin_.y + y_), ui_.palette.border);
    }

    // Runs wrapped at word boundaries across faces; returns the width of the widest line (for
    // table cells, laid out with no wrap).
    float paragraph(const std::vector<Inline>& runs, const Faces& faces, float indent, uint32_t color, float no_wrap_x) {
        float left = origin_.x + indent, right = no_wrap_x > 0 ? FLT_MAX : origin_.x + width_;
        if (no_wrap_x > 0) left = no_wrap_x;
        float line_h = font_px(faces.regular) * 1.3f;
        float x = left, widest = 0;
        // Lines with a formula taller than the text get the room it needs, above and below.
        LineRoom room = formula_room(runs, faces, line_h);
        y_ += room.above;
        bool after_image = false;  // the line below an image: nothing on it yet
        auto new_line = [&] {
            widest = std::max(widest, x - left);
            x = left;
            y_ += line_h + room.above + room.below;
        };
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const Inline& run = runs[r];
            if (run.kind == Inline::Kind::LineBreak) {
                new_line();
                continue;
            }
            if (run.kind == Inline::Kind::DisplayMath && x > left) new_line();
            if (const app::TypesetFormula* typeset = typeset_formula(run)) {
                formula(run, *typeset, faces, left, right, line_h, color, x, new_line);
                after_image = false;
                if (run.kind == Inline::Kind::DisplayMath && r + 1 < runs.size()) new_line();
                continue;
            }
            const app::PictureModel* picture = picture_of(ui_, run);
            if (picture && picture->state != app::PictureModel::State::Failed && picture->width > 0) {
                if (x > left) new_line();
                y_ += image(run, *picture, left, right == FLT_MAX ? left + ui_.px(320) : right);
                after_image = true;
                continue;
            }
            ImFont* font = face_for(faces, run);
            float size = font_px(font);
            // Faces of other sizes (mono) share the line's baseline.
            float shift = (faces.regular->Ascent - font->Ascent) * ImGui::GetIO().FontGlobalScale;
            std::string shown = run.text;
            if (run.kind == Inline::Kind::Image)
                shown = picture && picture->state == app::PictureModel::State::Failed
                            ? "[" + run.text + " \xe2\x80\x94 " + ui_.picture_not_shown + "]"
                            : "[" + run.text + "]";
            const char* s = shown.c_str();
            const char* end = s + shown.size();
            bool boxed = run.kind == Inline::Kind::Code || run.kind == Inline::Kind::Math ||
                         run.kind == Inline::Kind::DisplayMath || run.kind == Inline::Kind::Image;
            float pad = boxed ? ui_.px(4) : 0.0f;
            if (boxed) x += pad;
            while (s < end) {
                if (x == left)
                    while (s < end && *s == ' ') ++s;  // no line starts with the space it broke at
                if (s >= end) break;
                const char* word_end = s;
                while (word_end < end && *word_end != ' ') ++word_end;
                float word_w = font->CalcTextSizeA(size, FLT_MAX, 0, s, word_end).x;
                if (x > left && x + word_w + pad > right) {
                    new_line();
                    continue;
                }
                const char* cut = end;
                if (right < FLT_MAX) {
                    cut = font->CalcWordWrapPositionA(size / font->FontSize, s, end, right - x - pad);
                    if (cut <= s) cut = next_utf8(s, end);
                }
                float w = font->CalcTextSizeA(size, FLT_MAX, 0, s, cut).x;
                segment(run, font, size, s, cut, x, w, pad, color, shift);
                after_image = false;
                x += w;
                s = cut;
                if (s < end) new_line();
            }
            if (boxed) x += pad;
            if (run.kind == Inline::Kind::DisplayMath && r + 1 < runs.size()) new_line();
        }
        widest = std::max(widest, x - left);
        if (!after_image || x > left) y_ += line_h + room.below;
        return widest;
    }

    // ---- Typeset formulas (app/math.h): MathJax's SVG as a texture, tinted with the text's colour

    struct Room {
        float width, height, depth;  // CSS pixels; depth: below the baseline
    };
    struct LineRoom {
        float above = 0, below = 0;
    };

    bool refused_formula(const Inline& run) const {
        if ((run.kind != Inline::Kind::Math && run.kind != Inline::Kind::DisplayMath) || !ui_.math) return false;
        const app::TypesetFormula* found = ui_.math->find(run.text, run.kind == Inline::Kind::DisplayMath);
        return found && !found->ok;
    }

    const app::TypesetFormula* typeset_formula(const Inline& run) const {
        if ((run.kind != Inline::Kind::Math && run.kind != Inline::Kind::DisplayMath) || !ui_.math) return nullptr;
        const app::TypesetFormula* found = ui_.math->find(run.text, run.kind == Inline::Kind::DisplayMath);
        return found && found->ok ? found : nullptr;
    }

    // MathJax measures in ex: the x-height of the text the formula stands in, so that its letters
    // match the text's.
    float ex_px(const Faces& faces) const {
        ImFont* font = faces.regular;
        const ImFontGlyph* x = font->FindGlyphNoFallback('x');
        float height = x ? font->Ascent - x->Y0 : font->FontSize * 0.54f;
        return height * ImGui::GetIO().FontGlobalScale;
    }

    // Device pixels per CSS pixel, as the canvas is drawn.
    static float ratio() { return std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x); }

    // The formula's texture size in device pixels (whole ones: each texel is one pixel on screen,
    // that is what keeps it crisp), and its size on screen in CSS pixels from those.
    Room room_of(const app::TypesetFormula& formula, const Faces& faces, int& pixel_width, int& pixel_height) const {
        float ex = ex_px(faces), dpr = ratio();
        // A texture has a largest size (4096 is safe everywhere): a longer formula is drawn at a
        // lower ratio rather than not at all.
        float scale = std::min(dpr, 4096.0f / std::max(1.0f, formula.width_ex * ex));
        pixel_width = std::max(1, static_cast<int>(std::ceil(formula.width_ex * ex * scale)));
        pixel_height = std::max(1, std::min(4096, static_cast<int>(std::ceil(formula.height_ex * ex * scale))));
        return {pixel_width / scale, pixel_height / scale, std::max(0.0f, -formula.vertical_align_ex * ex)};
    }

    LineRoom formula_room(const std::vector<Inline>& runs, const Faces& faces, float line_h) const {
        LineRoom room;
        float ascent = faces.regular->Ascent * ImGui::GetIO().FontGlobalScale;
        for (const Inline& run : runs) {
            const app::TypesetFormula* typeset = run.kind == Inline::Kind::Math ? typeset_formula(run) : nullptr;
            if (!typeset) continue;
            int w = 0, h = 0;
            Room r = room_of(*typeset, faces, w, h);
            room.above = std::max(room.above, r.height - r.depth - ascent + ui_.px(2));
            room.below = std::max(room.below, r.depth - (line_h - ascent) + ui_.px(2));
        }
        return room;
    }

    // Inline: on the text's baseline, on the next line if it does not fit on this one. Display:
    // centred on a line of its own. Wider than the column, either scrolls sideways in a box of
    // its own (a scroll bar, the wheel, a touch drag) instead of overflowing.
    template <typename NewLine>
    void formula(const Inline& run, const app::TypesetFormula& typeset, const Faces& faces, float left, float right,
                 float line_h, uint32_t color, float& x, NewLine& new_line) {
        int pixel_width = 0, pixel_height = 0;
        Room r = room_of(typeset, faces, pixel_width, pixel_height);
        bool display = run.kind == Inline::Kind::DisplayMath;
        float column = right - left;
        bool unbounded = right >= FLT_MAX / 2;  // a table cell, laid out without wrapping
        if ((!display || unbounded) && (unbounded || r.width <= column)) {
            if (x > left && x + r.width > right) new_line();
            float baseline = origin_.y + y_ + faces.regular->Ascent * ImGui::GetIO().FontGlobalScale;
            draw_formula(run, typeset, ImVec2(x, baseline + r.depth - r.height), r, pixel_width, pixel_height, color);
            x += r.width;
            return;
        }
        if (x > left) new_line();
        float gap = display ? ui_.px(6) : 0.0f;
        if (r.width <= column) {
            draw_formula(run, typeset, ImVec2(left + (column - r.width) * 0.5f, origin_.y + y_ + gap), r, pixel_width,
                         pixel_height, color);
            y_ += r.height + gap * 2 - line_h;
            return;
        }
        float bar = ImGui::GetStyle().ScrollbarSize + ui_.px(4);
        float height = r.height + gap * 2 + bar;
        if (draw_) {
            ImGui::SetCursorScreenPos(ImVec2(left, origin_.y + y_));
            ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, gap));
            std::string child = "##math" + std::to_string(formula_count_++);
            ImGui::BeginChild(child.c_str(), ImVec2(column, height), false,
                              ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_AlwaysUseWindowPadding);
            if (ui_.touch_input && ImGui::IsWindowHovered() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, ui_.px(8)))
                ImGui::SetScrollX(ImGui::GetScrollX() - ImGui::GetIO().MouseDelta.x);
            ImDrawList* saved = list_;
            list_ = ImGui::GetWindowDrawList();
            draw_formula(run, typeset, ImGui::GetCursorScreenPos(), r, pixel_width, pixel_height, color);
            list_ = saved;
            ImGui::Dummy(ImVec2(r.width, r.height));
            ImGui::EndChild();
            ImGui::PopStyleVar();
        }
        y_ += height - line_h;
    }

    void draw_formula(const Inline& run, const app::TypesetFormula& typeset, ImVec2 at, const Room& r, int pixel_width,
                      int pixel_height, uint32_t color) {
        if (!draw_) return;
        // On whole device pixels, so that the texture's pixels are the screen's.
        float dpr = ratio();
        at = ImVec2(std::round(at.x * dpr) / dpr, std::round(at.y * dpr) / dpr);
        ImVec2 end = at + ImVec2(r.width, r.height);
        std::uint32_t texture = 0;
        std::string key = app::formula_key(run.text, run.kind == Inline::Kind::DisplayMath);
        if (ui_.math_pictures && ui_.math) texture = ui_.math_pictures->texture(*ui_.math, key, typeset, pixel_width, pixel_height);
        if (!texture) {
            // Its picture is a frame or two away (decoded after this frame): its place, quietly.
            list_->AddRectFilled(at, end, ui_.palette.surface_hover, ui_.px(4));
            return;
        }
        list_->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture)), at, end, ImVec2(0, 0),
                        ImVec2(1, 1), color);
        if (!ui_.items) return;
        // Where the formula is, for the page (tests find its pixels there).
        ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
        if (end.y < clip.Min.y || at.y > clip.Max.y) return;
        ItemRect item{"math:" + run.text, run.text, at.x, at.y, r.width, r.height};
        item.font_px = font_px(faces_.regular);
        item.text_color = color;
        ui_.items->push_back(item);
    }

    // One piece of a run on one line: its box (code, math, image), its text, its link.
    void segment(const Inline& run, ImFont* font, float size, const char* s, const char* cut, float x, float w, float pad,
                 uint32_t color, float shift) {
        if (!draw_) return;
        ImVec2 min(x, origin_.y + y_ + shift), max(x + w, origin_.y + y_ + shift + size * 1.2f);
        bool link = !run.link.empty() && run.kind != Inline::Kind::Image;
        uint32_t ink = link ? (ui_.palette.dark ? ui_.palette.accent_hover : ui_.palette.accent) : color;
        if (run.kind == Inline::Kind::Image) ink = ui_.palette.text_muted;
        if (pad > 0)
            list_->AddRectFilled(ImVec2(min.x - pad, min.y - ui_.px(1)), ImVec2(max.x + pad, max.y), ui_.palette.surface_hover,
                                 ui_.px(4));
        if (pad > 0 && refused_formula(run))  // a TeX error: its source, in a box marked as wrong
            list_->AddRect(ImVec2(min.x - pad, min.y - ui_.px(1)), ImVec2(max.x + pad, max.y), ui_.palette.wrong, ui_.px(4),
                           0, std::max(1.0f, ui_.px(1.5f)));
        list_->AddText(font, size, min, ink, s, cut);
        float base = min.y + size * 1.08f;
        if (link) list_->AddLine(ImVec2(min.x, base), ImVec2(max.x, base), ink, std::max(1.0f, ui_.px(1)));
        if (run.style & Inline::Strikethrough)
            list_->AddLine(ImVec2(min.x, min.y + size * 0.6f), ImVec2(max.x, min.y + size * 0.6f), ink, std::max(1.0f, ui_.px(1)));
        if (!link) return;
        if (pressed(ImGui::GetID(s), min, max, ImVec2(2, 1)) == Press::Activated) {
            action = app::Action::of(app::Action::Kind::OpenLink);
            action.text = run.link;
        }
    }

    // A run that is an ImGui item of its own (a link, an image): hover, click and keyboard
    // activation, a hand, and the focus ring `ring` outside it.
    enum class Press { Clipped, Idle, Activated };
    Press pressed(ImGuiID id, ImVec2 min, ImVec2 max, ImVec2 ring) {
        ImRect bb(min, max);
        if (!ImGui::ItemAdd(bb, id)) return Press::Clipped;
        bool hovered = false, held = false;
        bool activated = ImGui::ButtonBehavior(bb, id, &hovered, &held) && !ui_.touch_scrolling;
        if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGuiContext& g = *GImGui;
        if (g.NavId == id && !g.NavDisableHighlight)
            list_->AddRect(min - ring, max + ring, ui_.palette.accent, ui_.px(3), 0, ui_.px(2));
        return activated ? Press::Activated : Press::Idle;
    }

    // An image on a line of its own, at its own size or narrower to fit the column, never
    // wider; until its texture comes, a box of that size keeps the text below from jumping.
    // It is an item: a tap, a click or Enter shows it full size. Returns the height it took.
    float image(const Inline& run, const app::PictureModel& picture, float left, float right) {
        float width = std::min(static_cast<float>(picture.width), right - left);
        float height = width * static_cast<float>(picture.height) / static_cast<float>(picture.width);
        if (!draw_) return height + ui_.px(6);
        ImVec2 min(left, origin_.y + y_), max(left + width, origin_.y + y_ + height);
        if (picture.state == app::PictureModel::State::Ready)
            list_->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(picture.texture)), min, max);
        else
            list_->AddRectFilled(min, max, ui_.palette.surface_hover, ui_.px(4));
        if (!interactive_) {
            record_rect(ui_, "picture:" + run.link, run.text, min, max);
            return height + ui_.px(6);
        }
        Press press = pressed(ImGui::GetID(run.link.c_str()), min, max, ImVec2(3, 3));
        if (press == Press::Clipped) return height + ui_.px(6);
        if (press == Press::Activated && picture.state == app::PictureModel::State::Ready) {
            action = app::Action::of(app::Action::Kind::OpenPicture);
            action.text = run.link;
        }
        record_item(ui_, "picture:" + run.link, run.text);
        return height + ui_.px(6);
    }

    // Monospaced lines as written: never wrapped; wider than the column, the block scrolls
    // sideways (a scroll bar, the wheel, a touch drag). A Copy button in its corner.
    void code_block(const Block& block, float indent, const char* id) {
        ImFont* font = body_.mono;
        float size = font_px(font);
        float pad = ui_.px(12);
        ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0, block.code.c_str(), block.code.c_str() + block.code.size());
        float inner_w = width_ - indent;
        bool scrolls = text.x + pad * 2 > inner_w;
        float bar = scrolls ? ImGui::GetStyle().ScrollbarSize + ui_.px(4) : 0.0f;
        // The Copy button sits in the top-right corner, unless the first line reaches under it:
        // then the code starts a row lower.
        ImFont* small = ui_.fonts.small;
        const char* label = ui_.copy_label.c_str();
        float label_w = small->CalcTextSizeA(font_px(small), FLT_MAX, 0, label).x;
        float button_h = font_px(small) + ui_.px(10);
        const char* first_end = std::find(block.code.c_str(), block.code.c_str() + block.code.size(), '\n');
        float first_w = font->CalcTextSizeA(size, FLT_MAX, 0, block.code.c_str(), first_end).x;
        float below = first_w + pad > inner_w - label_w - ui_.px(28) ? button_h + ui_.px(2) : 0.0f;
        float height = text.y + pad * 2 + bar + below;
        if (draw_) {
            ImVec2 pos(origin_.x + indent, origin_.y + y_);
            ImGui::SetCursorScreenPos(pos);
            ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(ui_.palette.surface_hover));
            ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
            ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, ui_.px(8));
            std::string child = std::string(id) + "##code";
            ImGui::BeginChild(child.c_str(), ImVec2(inner_w, height), false,
                              ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_AlwaysUseWindowPadding);
            if (ui_.touch_input && ImGui::IsWindowHovered() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, ui_.px(8)))
                ImGui::SetScrollX(ImGui::GetScrollX() - ImGui::GetIO().MouseDelta.x);
            if (below > 0) ImGui::Dummy(ImVec2(0, below - ImGui::GetStyle().ItemSpacing.y));
            ImGui::PushFont(font);
            if (block.spans.empty()) {
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color_));
                ImGui::TextUnformatted(block.code.c_str(), block.code.c_str() + block.code.size());
                ImGui::PopStyleColor();
            } else {
                ImVec2 at = ImGui::GetCursorScreenPos();
                // The room TextUnformatted takes for it: colours arriving change no layout.
                ImGui::Dummy(ImGui::CalcTextSize(block.code.c_str(), block.code.c_str() + block.code.size()));
                coloured_code(block, font, size, at);
            }
            // Where the code's first glyph sits, for tests that read its colours off the canvas.
            record_text_item(ui_, "code:" + std::string(id) + ":" + std::to_string(block_index_), "", size, 0, color_);
            ImGui::PopFont();
            ImGui::EndChild();
            ImGui::PopStyleVar(2);
            ImGui::PopStyleColor();
            // Copy, in the block's top-right corner.
            ImVec2 button_min(pos.x + inner_w - label_w - ui_.px(20), pos.y + ui_.px(4));
            ImVec2 button_max(pos.x + inner_w - ui_.px(4), pos.y + ui_.px(4) + button_h);
            ImGui::SetCursorScreenPos(button_min);
            if (ImGui::InvisibleButton("##copy", button_max - button_min) && !ui_.touch_scrolling) {
                action = app::Action::of(app::Action::Kind::CopyText);
                action.text = block.code;
            }
            bool hovered = ImGui::IsItemHovered();
            ImDrawList* draw = ImGui::GetWindowDrawList();
            draw->AddRectFilled(button_min, button_max, hovered ? ui_.palette.surface : ui_.palette.background, ui_.px(6));
            draw->AddRect(button_min, button_max, ui_.palette.border, ui_.px(6));
            draw->AddText(small, font_px(small), button_min + ImVec2(ui_.px(8), ui_.px(5)), ui_.palette.text_muted, label);
            record_item(ui_, std::string("copy:") + id, label);
        }
        y_ += height;
    }

    // The code's glyphs as ImGui's own text drawing places them (the line's start on a whole
    // pixel, then each glyph's advance), each in its span's colour: only the lines and columns
    // inside the block's visible area, and nothing allocated.
    void coloured_code(const Block& block, ImFont* font, float size, ImVec2 at) const {
        const CodeColours colours = code_colours(ui_.palette);
        ImDrawList* list = ImGui::GetWindowDrawList();
        const ImVec4 clip = list->_ClipRectStack.back();
        const float scale = size / font->FontSize;
        const char* code = block.code.c_str();
        const char* end = code + block.code.size();
        std::size_t span = 0;
        float y = IM_FLOOR(at.y);
        for (const char* line = code; y <= clip.w; y += size) {
            const char* line_end = std::find(line, end, '\n');
            const char* s = y + size < clip.y ? line_end : line;
            float x = IM_FLOOR(at.x);
            while (s < line_end && x <= clip.z) {
                auto offset = static_cast<std::uint32_t>(s - code);
                while (span < block.spans.size() && block.spans[span].begin + block.spans[span].length <= offset) ++span;
                bool inside = span < block.spans.size() && block.spans[span].begin <= offset;
                uint32_t ink = inside ? colours[static_cast<std::size_t>(block.spans[span].kind)] : color_;
                unsigned int c = 0;
                int bytes = ImTextCharFromUtf8(&c, s, end);
                s += bytes > 0 ? bytes : 1;
                if (c == '\r') continue;
                const ImFontGlyph* glyph = font->FindGlyph(static_cast<ImWchar>(c));
                if (!glyph) continue;
                if (glyph->Visible && x + glyph->X1 * scale >= clip.x) {
                    list->PrimReserve(6, 4);
                    list->PrimRectUV(ImVec2(x + glyph->X0 * scale, y + glyph->Y0 * scale),
                                     ImVec2(x + glyph->X1 * scale, y + glyph->Y1 * scale), ImVec2(glyph->U0, glyph->V0),
                                     ImVec2(glyph->U1, glyph->V1), ink);
                }
                x += glyph->AdvanceX * scale;
            }
            if (line_end == end) break;
            line = line_end + 1;
        }
    }

    // Cells in columns as wide as their widest cell, never wrapped; wider than the column, the
    // table scrolls sideways like code.
    void table(const Block& block, float indent, const char* id) {
        std::size_t columns = 0;
        for (const auto& row : block.rows) columns = std::max(columns, row.size());
        if (columns == 0) return;
        float cell_pad = ui_.px(10);
        std::vector<float> widths(columns, 0.0f);
        // Each cell's own width, measured once: for its column's width, then for its alignment.
        std::vector<std::vector<float>> natural(block.rows.size());
        float saved_y = y_;
        bool saved_draw = draw_;
        draw_ = false;
        for (std::size_t r = 0; r < block.rows.size(); ++r)
            for (std::size_t c = 0; c < block.rows[r].size(); ++c) {
                natural[r].push_back(paragraph(block.rows[r][c], r < block.header_rows ? bold_faces() : body_, 0, color_, 1.0f));
                widths[c] = std::max(widths[c], natural[r].back());
            }
        draw_ = saved_draw;
        y_ = saved_y;
        float row_h = font_px(body_.regular) * 1.3f + cell_pad * 2;
        float total_w = cell_pad * 2 * static_cast<float>(columns);
        for (float w : widths) total_w += w;
        float inner_w = width_ - indent;
        bool scrolls = total_w > inner_w;
        float bar = scrolls ? ImGui::GetStyle().ScrollbarSize + ui_.px(4) : 0.0f;
        float height = row_h * static_cast<float>(block.rows.size()) + bar;
        if (draw_) {
            ImVec2 pos(origin_.x + indent, origin_.y + y_);
            ImGui::SetCursorScreenPos(pos);
            std::string child = std::string(id) + "##table";
            ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
            ImGui::BeginChild(child.c_str(), ImVec2(inner_w, height), false, ImGuiWindowFlags_HorizontalScrollbar);
            if (ui_.touch_input && ImGui::IsWindowHovered() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, ui_.px(8)))
                ImGui::SetScrollX(ImGui::GetScrollX() - ImGui::GetIO().MouseDelta.x);
            ImVec2 start = ImGui::GetCursorScreenPos();
            ImDrawList* saved_list = list_;
            ImVec2 saved_origin = origin_;
            list_ = ImGui::GetWindowDrawList();
            for (std::size_t r = 0; r < block.rows.size(); ++r) {
                float row_y = start.y + row_h * static_cast<float>(r);
                if (r < block.header_rows)
                    list_->AddRectFilled(ImVec2(start.x, row_y), ImVec2(start.x + total_w, row_y + row_h), ui_.palette.surface_hover);
                list_->AddLine(ImVec2(start.x, row_y + row_h), ImVec2(start.x + total_w, row_y + row_h), ui_.palette.border,
                               ui_.px(1));
                float x = start.x;
                for (std::size_t c = 0; c < columns; ++c) {
                    if (c < block.rows[r].size()) {
                        const auto& cell = block.rows[r][c];
                        const Faces& faces = r < block.header_rows ? bold_faces() : body_;
                        char align = c < block.align.size() ? block.align[c] : 0;
                        float slack = widths[c] - natural[r][c];
                        float offset = align == 'r' ? slack : align == 'c' ? slack * 0.5f : 0.0f;
                        origin_ = ImVec2(start.x, row_y + cell_pad);
                        y_ = 0;
                        paragraph(cell, faces, 0, color_, x + cell_pad + offset);
                    }
                    x += widths[c] + cell_pad * 2;
                }
            }
            ImGui::Dummy(ImVec2(total_w, row_h * static_cast<float>(block.rows.size())));
            list_ = saved_list;
            origin_ = saved_origin;
            ImGui::EndChild();
            ImGui::PopStyleVar();
        }
        y_ = saved_y + height;
    }

    const Faces& bold_faces() {
        bold_ = body_;
        bold_.regular = body_.bold;
        bold_.italic = body_.bold_italic;
        return bold_;
    }

    const UiContext& ui_;
    const Faces& faces_;
    const Faces& body_;
    Faces bold_;
    uint32_t color_;
    ImVec2 origin_;
    float width_;
    bool draw_;
    bool interactive_;
    ImDrawList* list_;
    float y_ = 0;
    std::size_t block_index_ = 0;  // of the block being laid out, in its text
    int formula_count_ = 0;  // ids of the scrolling boxes of wide formulas
};

}  // namespace

app::Action rich_text(const UiContext& ui, const char* id, const RichText& text, TextSize size, uint32_t color) {
    if (!app::rich_player) return {};   // a plain bank's text never comes here
    ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = room_x();   // inside a panel: up to its wrap position, as plain text
    ImGui::PushID(id);
    Layout layout(ui, size, color, origin, width, true, true);
    float height = layout.blocks(text, id);
    ImGui::PopID();
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(width, height));
    return layout.action;
}

float rich_text_height(const UiContext& ui, const RichText& text, TextSize size, float width) {
    if (!app::rich_player) return 0;
    Layout layout(ui, size, 0, ImVec2(0, 0), width, false, false);
    return layout.blocks(text, "");
}

void rich_text_at(const UiContext& ui, const char* id, const RichText& text, TextSize size, uint32_t color, ImVec2 origin,
                  float width) {
    if (!app::rich_player) return;
    ImVec2 cursor = ImGui::GetCursorScreenPos();
    ImGui::PushID(id);
    Layout layout(ui, size, color, origin, width, true, false);
    layout.blocks(text, id);
    ImGui::PopID();
    ImGui::SetCursorScreenPos(cursor);  // a code block or table placed children; the caller's layout goes on
}

}  // namespace imquiz::ui
