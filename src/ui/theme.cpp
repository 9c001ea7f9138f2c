#include "ui/theme.h"

#include <algorithm>

namespace imquiz::ui {

namespace {
ImVec4 color(uint32_t packed) { return ImGui::ColorConvertU32ToFloat4(packed); }
}  // namespace

Fonts build_fonts(const FontFiles& files, const GlyphSet& glyphs, float text_scale, float device_pixel_ratio) {
    static_assert(sizeof(ImWchar) == sizeof(std::uint16_t), "GlyphSet's ranges are ImGui's 16-bit ImWchar");
    const auto* glyph_ranges = reinterpret_cast<const ImWchar*>(glyphs.ranges().data());
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    // Raster at the device's resolution; more than 3x buys nothing visible and costs atlas memory.
    float raster = std::clamp(device_pixel_ratio, 1.0f, 3.0f);
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;
    config.OversampleH = 1;  // the atlas is already at device resolution
    config.OversampleV = 1;
    config.PixelSnapH = true;
    auto add_face = [&](const std::string* ttf, float css_size, ImFont* fallback) {
        if (!ttf || ttf->empty()) return fallback;
        void* data = const_cast<char*>(ttf->data());
        return io.Fonts->AddFontFromMemoryTTF(data, static_cast<int>(ttf->size()), css_size * text_scale * raster,
                                              &config, glyph_ranges);
    };
    auto add = [&](float css_size, Faces& faces) {
        faces.regular = add_face(files.regular, css_size, nullptr);
        faces.bold = add_face(files.bold, css_size, faces.regular);
        faces.italic = add_face(files.italic, css_size, faces.regular);
        faces.bold_italic = add_face(files.bold_italic, css_size, faces.bold);
        // DejaVu Sans Mono's letters are a size bigger than Noto Sans's at the same size: 0.87
        // matches their x-heights, so code sits in a sentence without shouting.
        faces.mono = add_face(files.mono, css_size * 0.87f, faces.regular);
        return faces.regular;
    };
    Fonts fonts;
    fonts.body = add(Metrics::body_size, fonts.body_faces);
    fonts.heading = add(Metrics::heading_size, fonts.heading_faces);
    fonts.small = add(Metrics::small_size, fonts.small_faces);
    bool rich = files.bold && !files.bold->empty();
    io.Fonts->TexDesiredWidth = raster > 1.5f || rich ? 2048 : 1024;
    io.Fonts->Build();
    io.FontGlobalScale = 1.0f / raster;
    io.FontDefault = fonts.body;
    return fonts;
}

void apply_style(const Palette& palette, const Metrics& metrics) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    style.WindowPadding = ImVec2(metrics.px(16), metrics.px(16));
    style.FramePadding = ImVec2(metrics.px(14), metrics.px(10));
    style.ItemSpacing = ImVec2(metrics.px(12), metrics.px(12));
    style.ItemInnerSpacing = ImVec2(metrics.px(10), metrics.px(8));
    style.TouchExtraPadding = ImVec2(0, 0);
    style.ScrollbarSize = metrics.px(10);
    style.GrabMinSize = metrics.px(24);
    style.WindowBorderSize = 0;
    style.ChildBorderSize = 0;
    style.PopupBorderSize = 1;
    style.FrameBorderSize = 1;
    style.WindowRounding = 0;
    style.ChildRounding = metrics.px(12);
    style.FrameRounding = metrics.px(10);
    style.PopupRounding = metrics.px(10);
    style.ScrollbarRounding = metrics.px(6);
    style.GrabRounding = metrics.px(8);
    style.WindowMenuButtonPosition = ImGuiDir_None;

    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = color(palette.text);
    c[ImGuiCol_TextDisabled] = color(palette.text_muted);
    c[ImGuiCol_WindowBg] = color(palette.background);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_PopupBg] = color(palette.surface);
    c[ImGuiCol_Border] = color(palette.border);
    c[ImGuiCol_BorderShadow] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_FrameBg] = color(palette.surface);
    c[ImGuiCol_FrameBgHovered] = color(palette.surface_hover);
    c[ImGuiCol_FrameBgActive] = color(palette.accent_soft);
    c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_ScrollbarGrab] = color(palette.border);
    c[ImGuiCol_ScrollbarGrabHovered] = color(palette.text_muted);
    c[ImGuiCol_ScrollbarGrabActive] = color(palette.accent);
    c[ImGuiCol_CheckMark] = color(palette.accent);
    c[ImGuiCol_SliderGrab] = color(palette.accent);
    c[ImGuiCol_SliderGrabActive] = color(palette.accent_hover);
    c[ImGuiCol_Button] = color(palette.surface);
    c[ImGuiCol_ButtonHovered] = color(palette.surface_hover);
    c[ImGuiCol_ButtonActive] = color(palette.accent_soft);
    c[ImGuiCol_Header] = color(palette.accent_soft);
    c[ImGuiCol_HeaderHovered] = color(palette.surface_hover);
    c[ImGuiCol_HeaderActive] = color(palette.accent_soft);
    c[ImGuiCol_Separator] = color(palette.border);
    c[ImGuiCol_PlotHistogram] = color(palette.accent);
    c[ImGuiCol_TextSelectedBg] = color(palette.accent_soft);
    c[ImGuiCol_NavHighlight] = color(palette.accent);
    c[ImGuiCol_ModalWindowDimBg] = ImVec4(0, 0, 0, palette.dark ? 0.6f : 0.35f);
}

}  // namespace imquiz::ui
