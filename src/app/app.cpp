// start, poll, apply: the app's life, and the one place its state changes.
#include "app/app.h"

#include "app/app_internal.h"
#include "app/page_protocol.h"

namespace imquiz::app {

// open_wanted_quiz (run by every poll) sets opened_wanted_quiz once the quiz opened, its bank
// failed, or the catalog does not list it: until then it is still on its way.
bool opening_quiz(const AppState& state) {
    return !state.wanted_quiz.empty() && !state.opened_wanted_quiz && state.catalog_error.empty();
}

bool wants_dark(const AppState& state) {
    switch (state.preferences.theme) {
    case ThemeChoice::Dark: return true;
    case ThemeChoice::Light: return false;
    default: return platform::system_prefers_dark();
    }
}

void start(AppState& state) {
    state.wanted_quiz = platform::url_parameter("quiz");
    state.wanted_bank_url = platform::development_bank_url();
    state.embed = platform::url_parameter("embed") == "1";
    state.storage_persistent = platform::storage_is_persistent();
    state.storage_notice_visible = !state.storage_persistent;
    state.seed_salt = platform::random_u64();
    open_progress_store(state);
    load_preferences(state);
    start_loading(state);
}

bool take_fetch_results(AppState& state) {
    bool changed = false;
    platform::FetchResult result;
    while (platform::take_fetch_result(result)) changed |= take_loaded_file(state, result) || take_picture_file(state, result);
    return changed;
}

bool poll(AppState& state) {
    bool changed = take_fetch_results(state);
    changed |= reload_changed_files(state);
    changed |= read_banks_waiting_for_markdown(state);
    changed |= typeset_bank_formulas(state);
    if (state.screen == Screen::Loading && state.catalog_loaded && !state.font_data.empty())
        state.screen = Screen::Catalog;
    open_wanted_quiz(state);
    changed |= update_pictures(state);
    changed |= keep_exam_time(state);
    changed |= keep_due_counts(state);

    // Another tab saved progress: merge it in, so finishing here never overwrites it.
    std::vector<std::string> changed_keys = platform::take_changed_storage_keys();
    if (!changed_keys.empty()) {
        merge_progress_from_other_tabs(state, changed_keys);
        changed = true;
    }

    std::string page_action;
    while (platform::take_page_action(page_action)) {
        Action action = action_from_page(state, page_action);
        if (action.kind != Action::Kind::None) {
            apply(state, action);
            changed = true;
        }
    }

    std::string picked;
    if (platform::take_picked_file(picked)) {
        import_progress(state, picked);
        changed = true;
    }
    return changed;
}

void apply(AppState& state, const Action& action) {
    using Kind = Action::Kind;
    switch (action.kind) {
    case Kind::None: break;
    case Kind::OpenQuiz: open_quiz(state, action.bank, false); break;
    case Kind::StartOver: open_quiz(state, action.bank, true); break;
    case Kind::SelectChoice: select_choice(state, action.choice_id); break;
    case Kind::SetTypedAnswer: set_typed_answer(state, action.text); break;
    case Kind::MatchItem: match_item(state, action.choice_id, action.text); break;
    case Kind::MoveItem: move_item(state, action.choice_id, action.number); break;
    case Kind::FillBlank: fill_blank_of(state, action.choice_id, action.text); break;
    case Kind::Check: check_current(state); break;
    case Kind::ShowHint: show_hint(state); break;
    case Kind::GoToQuestion:
        if (action.number >= 0 && action.number < 1e6f) go_to_exam_question(state, static_cast<std::size_t>(action.number));
        break;
    case Kind::PreviousQuestion:
        if (state.session && state.session->current > 0) go_to_exam_question(state, state.session->current - 1);
        break;
    case Kind::ToggleFlag: toggle_exam_flag(state); break;
    case Kind::Submit: state.confirming_submit = in_exam(state); break;
    case Kind::CancelSubmit: state.confirming_submit = false; break;
    case Kind::ConfirmSubmit: submit_current_exam(state); break;
    case Kind::Next: go_next(state); break;
    case Kind::Retry: retry_quiz(state); break;
    case Kind::ReviewMistakes: review_mistakes(state); break;
    case Kind::ReviewDue: review_due(state, action.bank); break;
    case Kind::ReviewAll: review_all(state); break;
    case Kind::ReviewNextQuiz: review_next_quiz(state); break;
    case Kind::BackToCatalog: leave_quiz(state); break;
    case Kind::OpenSettings:
        if (state.screen != Screen::Settings) state.screen_before_settings = state.screen;
        state.screen = Screen::Settings;
        break;
    case Kind::CloseSettings:
        state.screen = state.screen_before_settings;
        state.import_message.clear();
        if (state.screen == Screen::Catalog) fetch_remaining_banks(state);
        break;
    case Kind::SetLanguage:
        state.preferences.language = action.language;
        save_preferences(state);
        break;
    case Kind::SetTheme:
        state.preferences.theme = action.theme;
        save_preferences(state);
        break;
    case Kind::SetTextScale:
        state.preferences.text_scale = nearest_text_size(action.number);
        save_preferences(state);
        break;
    case Kind::RetryLoad:
        if (action.bank >= 0 && action.bank < static_cast<int>(state.banks.size()))
            fetch_bank(state.banks[static_cast<std::size_t>(action.bank)]);
        break;
    case Kind::ExportProgress:
        if (state.progress_store)
            platform::download_text_file("imquiz-progress.json", state.progress_store->export_all(now()));
        break;
    case Kind::ImportProgress: platform::pick_text_file(); break;
    case Kind::DismissNotice:
        state.storage_notice_visible = false;
        state.write_failed_notice_visible = false;
        state.newer_version_notice_visible = false;
        state.time_up_notice_visible = false;
        state.reload_notice_dismissed = true;
        break;
    case Kind::DeleteProgress:
        if (action.bank >= 0 && action.bank < static_cast<int>(state.banks.size()) &&
            state.banks[static_cast<std::size_t>(action.bank)].bank)
            state.pending_delete = action.bank;
        break;
    case Kind::DeleteAllProgress: state.pending_delete = -1; break;
    case Kind::CancelDelete: state.pending_delete.reset(); break;
    case Kind::ConfirmDelete: delete_progress(state); break;
    case Kind::OpenLink: {
        // The validator refused any other scheme; checked again where it takes effect.
        const std::string& url = action.text;
        auto starts = [&](const char* prefix) { return url.compare(0, std::char_traits<char>::length(prefix), prefix) == 0; };
        if (starts("https://") || starts("http://") || starts("mailto:")) platform::open_link(url);
        break;
    }
    case Kind::CopyText: platform::copy_text(action.text); break;
    case Kind::OpenPicture:
        for (const Picture& picture : state.pictures)
            if (picture.source == action.text && picture.state == Picture::State::Ready) state.viewing_picture = picture.source;
        break;
    case Kind::ClosePicture: state.viewing_picture.clear(); break;
    }
}

}  // namespace imquiz::app
