// The frame around every view: one borderless full-window ImGui window, touch scrolling,
// global keyboard shortcuts, notices.
#include "ui/views.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace imquiz::ui {

namespace {

// Touch screens scroll by dragging the content. ImGui 1.86 has no such notion, so a drag that
// started from a touch moves the scroll position and swallows the click it would end in.
bool touch_drag_scroll(const UiContext& ui) {
    if (!ui.touch_input || !ImGui::IsMouseDragging(ImGuiMouseButton_Left, ui.px(8))) return false;
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseDelta.y);
    return true;
}

}  // namespace

Action draw_loading(const UiContext& ui, const ScreenModel& model) {
    ImGui::Dummy(ImVec2(0, ui.px(80)));
    text_wrapped(ui, ui.fonts.body, model.loading, ui.palette.text_muted);
    return {};
}

Action draw_notice(const UiContext& ui, const app::NoticeModel& notice) {
    panel_begin(ui, "notice");
    text_wrapped(ui, ui.fonts.body, notice.text, ui.palette.text);
    Action action = model_button(ui, notice.dismiss);
    panel_end(ui, ui.palette.accent_soft, ui.palette.accent);
    ImGui::Spacing();
    return action;
}

Action draw_screen(Views& views, const UiContext& base_ui, const ScreenModel& model) {
    ImGuiIO& io = ImGui::GetIO();
    // The window is the readable column itself, centred; the page background around it is the
    // GL clear colour. Wheel events over that margin still scroll the column.
    float side = io.DisplaySize.x < base_ui.px(480) ? base_ui.px(14) : base_ui.px(28);
    float width = std::min(io.DisplaySize.x, base_ui.px(Metrics::content_max_width) + side * 2);
    ImGui::SetNextWindowPos(ImVec2(std::floor((io.DisplaySize.x - width) * 0.5f), 0));
    ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                             ImGuiWindowFlags_NoBackground;
    flags &= ~ImGuiWindowFlags_NoScrollbar;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(side, base_ui.px(18)));
    ImGui::Begin("##imquiz", nullptr, flags);
    ImGui::PopStyleVar();
    // Back on the catalog, and on the results, the keyboard starts from the screen's first item:
    // the item it was on (a button far down the results, the question's Next) is gone, and the
    // arrows searched from where it had been, finding nothing below it on a short page.
    if (model.screen != views.last_screen) {
        const bool fresh_screen = model.screen == app::Screen::Catalog || model.screen == app::Screen::Results;
        if (fresh_screen && views.last_screen != app::Screen::Loading)
            ImGui::NavInitWindow(ImGui::GetCurrentWindow(), true);
        views.last_screen = model.screen;
    }
    if (!ImGui::IsWindowHovered() && io.MouseWheel != 0.0f && !ImGui::IsAnyItemActive())
        ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * ImGui::GetTextLineHeightWithSpacing() * 5);

    UiContext ui = base_ui;
    ui.copy_label = model.copy_label;
    ui.picture_not_shown = model.picture_not_shown;
    ui.pictures = &model.pictures;
    // A new press is a new gesture, even when no frame came between it and the last drag's release
    // (a tap right after a flick was swallowed as part of the drag).
    if (io.MouseClicked[ImGuiMouseButton_Left]) views.touch_dragged = false;
    if (touch_drag_scroll(ui)) views.touch_dragged = true;
    else if (!io.MouseDown[ImGuiMouseButton_Left] && !io.MouseReleased[ImGuiMouseButton_Left]) views.touch_dragged = false;
    ui.touch_scrolling = views.touch_dragged;

    Action action;
    if (!model.development_banner.empty()) {
        panel_begin(ui, "development-banner");
        text_wrapped(ui, ui.fonts.small, model.development_banner, ui.palette.text);
        panel_end(ui, ui.palette.accent_soft, ui.palette.accent);
        ImGui::Spacing();
    }
    Action notice = model.notice ? draw_notice(ui, *model.notice) : Action{};
    switch (model.screen) {
    case app::Screen::Loading: action = draw_loading(ui, model); break;
    case app::Screen::Catalog: action = draw_catalog(views.catalog, ui, model.catalog); break;
    case app::Screen::Question: action = draw_question(views.question, ui, model.question); break;
    case app::Screen::Results: action = draw_results(views.results, ui, model.results); break;
    case app::Screen::Settings: action = draw_settings(views.settings, ui, model.settings); break;
    }
    if (notice.kind != Action::Kind::None) action = notice;
    ImGui::Dummy(ImVec2(0, ui.px(12)));

    ImGui::End();
    if (model.viewer) action = draw_picture_viewer(ui, *model.viewer, model.pictures);
    // Esc closes a matching item's list of answers (ImGui does that as the frame starts), not the quiz.
    const bool list_was_open = views.question.popup_open || views.question.popup_was_open;
    if (action.kind == Action::Kind::None && !list_was_open && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
        action = model.escape;
    return action;
}

Action draw_picture_viewer(const UiContext& ui, const app::PictureViewerModel& viewer,
                           const std::vector<app::PictureModel>& pictures) {
    const app::PictureModel* picture = nullptr;
    for (const app::PictureModel& p : pictures)
        if (p.source == viewer.source && p.state == app::PictureModel::State::Ready) picture = &p;
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::SetNextWindowFocus();
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::ColorConvertU32ToFloat4(ui.palette.background));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(14), ui.px(12)));
    ImGui::Begin("##picture-viewer", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    Action action;
    // Close first, at the right: where a thumb or the Tab key finds it.
    float close_w = ui.fonts.body->CalcTextSizeA(ui.fonts.body->FontSize * io.FontGlobalScale, FLT_MAX, 0,
                                                 viewer.close.label.c_str()).x + ui.px(40);
    float text_w = ImGui::GetContentRegionAvail().x - close_w - ui.px(12);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(ui.px(80), text_w));
    ImGui::PushFont(ui.fonts.body);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ui.palette.text));
    ImGui::TextUnformatted(viewer.alt.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::PopTextWrapPos();
    float text_bottom = ImGui::GetCursorPosY();
    ImGui::SetCursorPos(ImVec2(ImGui::GetWindowWidth() - close_w - ui.px(14), ui.px(12)));
    Action close = model_button(ui, viewer.close, close_w);
    if (close.kind != Action::Kind::None) action = close;
    ImGui::SetCursorPosY(std::max(text_bottom, ImGui::GetCursorPosY()) + ui.px(8));
    if (picture) {
        ImVec2 size(static_cast<float>(picture->width), static_cast<float>(picture->height));
        ImGui::BeginChild("##picture", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
        if (ui.touch_input && ImGui::IsWindowHovered() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, ui.px(8))) {
            ImGui::SetScrollX(ImGui::GetScrollX() - io.MouseDelta.x);
            ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseDelta.y);
        }
        ImVec2 avail = ImGui::GetContentRegionAvail();
        ImGui::SetCursorPos(ImGui::GetCursorPos() + ImVec2(std::max(0.0f, (avail.x - size.x) * 0.5f), 0));
        ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(picture->texture)), size);
        record_item(ui, "picture-full:" + viewer.source, viewer.alt);
        ImGui::EndChild();
    }
    ImGui::End();
    return action;
}

}  // namespace imquiz::ui
