#include "app/app.h"

#include "app/time_format.h"

#include "engine/bank_loader.h"
#include "engine/hash.h"
#include "platform/platform.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace imquiz::app {

// The engine's JSON type: one parser and writer in the wasm, not two.
using json = nlohmann::ordered_json;

namespace {

constexpr const char* catalog_url = "quizzes/index.json";
constexpr const char* font_url = "fonts/imquiz-sans.ttf";
constexpr const char* settings_key = "settings";

std::int64_t now() { return static_cast<std::int64_t>(platform::now_ms()); }

// Non-throwing parse: a throw would abort the whole wasm module (exceptions are off).
json parse(const std::string& text) { return json::parse(text, nullptr, false); }

std::string string_field(const json& object, const char* name) {
    if (!object.is_object()) return {};
    auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// ---- Settings ---------------------------------------------------------------------------

const char* theme_name(ui::ThemeChoice theme) {
    switch (theme) {
    case ui::ThemeChoice::Light: return "light";
    case ui::ThemeChoice::Dark: return "dark";
    default: return "system";
    }
}
bool theme_from_name(const std::string& name, ui::ThemeChoice& out) {
    if (name == "light") { out = ui::ThemeChoice::Light; return true; }
    if (name == "dark") { out = ui::ThemeChoice::Dark; return true; }
    if (name == "system") { out = ui::ThemeChoice::System; return true; }
    return false;
}
float clamp_text_scale(float scale) {
    if (!std::isfinite(scale)) return 1.0f;
    return std::clamp(scale, 0.875f, 1.5f);
}

void save_preferences(AppState& state) {
    json settings = {{"version", 1},
                     {"language", ui::language_code(state.preferences.language)},
                     {"theme", theme_name(state.preferences.theme)},
                     {"textScale", state.preferences.text_scale}};
    platform::storage().set(settings_key, settings.dump());
}

// Language: the URL, then the saved setting, then the browser's language.
void load_preferences(AppState& state) {
    Preferences& prefs = state.preferences;
    ui::Language language = ui::Language::English;
    bool language_set = false;
    if (auto saved = platform::storage().get(settings_key)) {
        json settings = parse(*saved);
        language_set = ui::language_from_code(string_field(settings, "language"), language);
        theme_from_name(string_field(settings, "theme"), prefs.theme);
        if (settings.is_object() && settings.contains("textScale") && settings["textScale"].is_number())
            prefs.text_scale = clamp_text_scale(settings["textScale"].get<float>());
    }
    if (!language_set) language_set = ui::language_from_code(platform::browser_language(), language);
    ui::Language from_url;
    if (ui::language_from_code(platform::url_parameter("lang"), from_url)) language = from_url;
    prefs.language = language;
    theme_from_name(platform::url_parameter("theme"), prefs.theme);
}

// ---- Progress ---------------------------------------------------------------------------

void save_progress(AppState& state, BankSlot& slot) {
    if (!state.progress_store) return;
    auto status = state.progress_store->save(slot.progress);
    // Without persistent storage every save "fails" into memory: the learner was told at start.
    if (status == ProgressStore::SaveStatus::StorageFailed && state.storage_persistent &&
        !state.write_failed_notice_shown) {
        state.write_failed_notice_visible = true;
        state.write_failed_notice_shown = true;
    }
    // A newer ImQuiz's record is never overwritten; say why this attempt is not being kept.
    if (status == ProgressStore::SaveStatus::RefusedNewerVersion && !state.newer_version_notice_shown) {
        state.newer_version_notice_visible = true;
        state.newer_version_notice_shown = true;
    }
}

void load_progress(AppState& state, BankSlot& slot) {
    if (!state.progress_store || !slot.bank) return;
    auto loaded = state.progress_store->load(slot.bank->id);
    for (const auto& message : loaded.messages) std::printf("progress %s: %s\n", slot.bank->id.c_str(), message.c_str());
    if (loaded.status == ProgressStore::LoadStatus::NewerVersion && !state.newer_version_notice_shown) {
        state.newer_version_notice_visible = true;
        state.newer_version_notice_shown = true;
    }
    slot.progress = std::move(loaded.record);
    slot.progress.bank_id = slot.bank->id;
    for (const auto& message : reconcile_with_bank(slot.progress, *slot.bank))
        std::printf("progress %s: %s\n", slot.bank->id.c_str(), message.c_str());
}

// ---- Host page events (xAPI-shaped) -----------------------------------------------------

std::string iso8601(std::int64_t ms) {
    CivilTime t = civil_time(ms);
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.year, t.month, t.day, t.hour,
                  t.minute, t.second, t.millisecond);
    return buffer;
}

std::string duration_iso(std::int64_t ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "PT%.1fS", static_cast<double>(std::max<std::int64_t>(ms, 0)) / 1000.0);
    return buffer;
}

json verb(const char* name) {
    return {{"id", std::string("http://adlnet.gov/expapi/verbs/") + name}, {"display", {{"en-US", name}}}};
}

json activity(const Bank& bank, const std::string& language, const Question* question = nullptr) {
    json object = {{"objectType", "Activity"}};
    if (question) {
        const char* interaction = "other";
        switch (question->type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: interaction = "choice"; break;
        case QuestionType::TrueFalse: interaction = "true-false"; break;
        case QuestionType::Numeric: interaction = "numeric"; break;
        case QuestionType::ShortText: interaction = "fill-in"; break;
        }
        object["id"] = "urn:imquiz:" + bank.id + ":" + question->id;
        object["definition"] = {{"type", "http://adlnet.gov/expapi/activities/cmi.interaction"},
                                {"interactionType", interaction},
                                {"name", {{language, bank.text(question->prompt, language)}}}};
    } else {
        object["id"] = "urn:imquiz:" + bank.id;
        object["definition"] = {{"type", "http://adlnet.gov/expapi/activities/assessment"},
                                {"name", {{language, bank.text(bank.title, language)}}}};
    }
    return object;
}

void send_statement(AppState& state, json statement) {
    statement["timestamp"] = iso8601(now());
    json message = {{"type", "imquiz:xapi"}, {"statement", std::move(statement)}};
    platform::post_to_host(message.dump());
}

std::string response_text(const Response& response, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        std::string out;
        for (const auto& id : response.choice_ids) out += (out.empty() ? "" : "[,]") + id;
        return out;
    }
    case QuestionType::TrueFalse: return response.true_false ? "true" : "false";
    default: return response.text;
    }
}

// ---- Sessions ---------------------------------------------------------------------------

std::uint64_t next_seed(AppState& state) {
    // Not for secrecy: only so two attempts are shuffled differently.
    // The page's random salt keeps two tabs started in the same millisecond apart (attempt ids).
    return (static_cast<std::uint64_t>(now()) * 0x9E3779B97F4A7C15ull) ^ state.seed_salt ^ ++state.seed_counter;
}

BankSlot* active_slot(AppState& state) {
    if (state.active_bank < 0 || state.active_bank >= static_cast<int>(state.banks.size())) return nullptr;
    return &state.banks[static_cast<std::size_t>(state.active_bank)];
}

void reset_draft(AppState& state) {
    state.draft = Draft{};
    if (state.session) state.draft.question_index = state.session->current;
    state.question_shown_at_ms = now();
}

void show_session(AppState& state, Session session) {
    state.session = std::move(session);
    state.results.reset();
    state.feedback.reset();
    const Bank* bank = state.active();
    if (bank) state.feedback = current_feedback(*state.session, *bank);
    reset_draft(state);
    state.screen = Screen::Question;
}

void begin_attempt(AppState& state, Session session) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank) return;
    slot->progress.attempt_in_progress = session;
    save_progress(state, *slot);
    send_statement(state, {{"verb", verb("attempted")}, {"object", activity(*slot->bank, state.language_code())}});
    show_session(state, std::move(session));
}

void open_quiz(AppState& state, int bank_index, bool start_over) {
    if (bank_index < 0 || bank_index >= static_cast<int>(state.banks.size())) return;
    BankSlot& slot = state.banks[static_cast<std::size_t>(bank_index)];
    if (!slot.bank) return;
    state.active_bank = bank_index;
    state.previous_results.reset();
    auto& in_progress = slot.progress.attempt_in_progress;
    if (!start_over && in_progress && session_matches_bank(*in_progress, *slot.bank) && !is_finished(*in_progress)) {
        Session resumed = *in_progress;
        resume_session(resumed, now());
        // Another tab may be playing the stored attempt too (a duplicated tab, a second window):
        // each place it is resumed continues it under its own id, so when both finish, both
        // attempts are recorded instead of one replacing the other.
        resumed.attempt_id = resumed.attempt_id.substr(0, resumed.attempt_id.find('.')) + "." +
                             to_hex(next_seed(state)).substr(8);
        show_session(state, std::move(resumed));
        return;
    }
    begin_attempt(state, start_session(*slot.bank, next_seed(state), SessionOptions{{}, now()}));
}

void finish_attempt(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session) return;
    std::int64_t finished_at = now();
    state.results = results(*state.session, *slot->bank);
    record_finished_attempt(slot->progress, *state.session, *slot->bank, finished_at);
    save_progress(state, *slot);
    const Results& r = *state.results;
    send_statement(state, {{"verb", verb("completed")},
                           {"object", activity(*slot->bank, state.language_code())},
                           {"result", {{"completion", true},
                                       {"success", r.passed},
                                       {"duration", duration_iso(r.duration_ms)},
                                       {"score", {{"raw", r.score}, {"min", 0}, {"max", r.max_score},
                                                  {"scaled", r.max_score > 0 ? r.score / r.max_score : 0.0}}}}}});
    send_statement(state, {{"verb", verb(r.passed ? "passed" : "failed")},
                           {"object", activity(*slot->bank, state.language_code())},
                           {"result", {{"success", r.passed}, {"score", {{"scaled", r.percent / 100.0}}}}}});
    state.feedback.reset();
    state.screen = Screen::Results;
}

Response draft_response(const AppState& state, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: return Response::choices(state.draft.selected);
    case QuestionType::TrueFalse:
        return Response::boolean(!state.draft.selected.empty() && state.draft.selected.front() == "true");
    default: return Response::typed(state.draft.typed);
    }
}

bool draft_is_complete(const AppState& state, const Question& question) {
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
    case QuestionType::TrueFalse: return !state.draft.selected.empty();
    default: return state.draft.typed.find_first_not_of(" \t\r\n") != std::string::npos;
    }
}

void check_current(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session || state.feedback) return;
    const Question* question = current_question(*state.session, *slot->bank);
    if (!question || !draft_is_complete(state, *question)) return;
    Response response = draft_response(state, *question);
    Feedback feedback = check(*state.session, *slot->bank, response, now());
    if (feedback.problem != InputProblem::None) return;  // the view keeps showing the input hint
    state.feedback = feedback;
    slot->progress.attempt_in_progress = *state.session;
    save_progress(state, *slot);
    send_statement(state, {{"verb", verb("answered")},
                           {"object", activity(*slot->bank, state.language_code(), question)},
                           {"result", {{"response", response_text(response, *question)},
                                       {"success", feedback.correct},
                                       {"score", {{"scaled", feedback.score}}},
                                       {"duration", duration_iso(now() - state.question_shown_at_ms)}}},
                           {"context", {{"contextActivities", {{"parent", {activity(*slot->bank, state.language_code())}}}}}}});
}

void go_next(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session || !state.feedback) return;
    next(*state.session, now());
    if (is_finished(*state.session)) {
        finish_attempt(state);
        return;
    }
    state.feedback = current_feedback(*state.session, *slot->bank);
    slot->progress.attempt_in_progress = *state.session;
    save_progress(state, *slot);
    reset_draft(state);
}

void select_choice(AppState& state, const std::string& choice_id) {
    const Bank* bank = state.active();
    if (!bank || !state.session || state.feedback) return;
    const Question* question = current_question(*state.session, *bank);
    if (!question) return;
    auto& selected = state.draft.selected;
    switch (question->type) {
    case QuestionType::SingleChoice:
        if (question->find_choice(choice_id)) selected = {choice_id};
        break;
    case QuestionType::TrueFalse:
        if (choice_id == "true" || choice_id == "false") selected = {choice_id};
        break;
    case QuestionType::MultipleChoice: {
        if (!question->find_choice(choice_id)) break;
        auto it = std::find(selected.begin(), selected.end(), choice_id);
        if (it == selected.end()) selected.push_back(choice_id);
        else selected.erase(it);
        break;
    }
    default: break;
    }
}

// ---- Loading ----------------------------------------------------------------------------

std::string resolve(const std::string& base, const std::string& relative) {
    std::size_t slash = base.rfind('/');
    return slash == std::string::npos ? relative : base.substr(0, slash + 1) + relative;
}

void fetch_bank(BankSlot& slot) {
    slot.state = BankSlot::State::Loading;
    slot.fetch_error.clear();
    slot.diagnostics.clear();
    slot.fetch_request = platform::start_fetch(slot.url);
}

void on_catalog(AppState& state, const platform::FetchResult& result) {
    state.catalog_loaded = true;
    if (result.http_status < 200 || result.http_status >= 300) {
        state.catalog_error = std::string(catalog_url) + ": " + result.error;
        return;
    }
    CatalogLoadResult catalog = load_catalog(result.body, catalog_url);
    for (const auto& d : catalog.diagnostics)
        if (d.severity == Diagnostic::Severity::Error) state.catalog_error += format_diagnostic(d) + "\n";
    if (!catalog.catalog) return;
    for (const auto& entry : catalog.catalog->banks) {
        BankSlot slot;
        slot.id = entry.id;
        slot.url = resolve(catalog_url, entry.file);
        state.banks.push_back(std::move(slot));
    }
    for (auto& slot : state.banks)
        if (state.wanted_quiz.empty() || slot.id == state.wanted_quiz) fetch_bank(slot);
}

void on_bank(AppState& state, BankSlot& slot, const platform::FetchResult& result) {
    if (result.http_status < 200 || result.http_status >= 300) {
        slot.state = BankSlot::State::FetchFailed;
        slot.fetch_error = result.error.empty() ? "no answer" : result.error;
        return;
    }
    BankLoadResult loaded = load_bank(result.body, slot.url);
    slot.diagnostics = loaded.diagnostics;
    if (!loaded.bank) {
        slot.state = BankSlot::State::Invalid;
        return;
    }
    slot.bank = std::move(loaded.bank);
    slot.question_count = slot.bank->questions.size();
    if (slot.id.empty()) slot.id = slot.bank->id;
    slot.state = BankSlot::State::Ready;
    load_progress(state, slot);
}

// quiz=<id> (or bank=<url>) opens the quiz as soon as its bank is ready.
void open_wanted_quiz(AppState& state) {
    if (state.opened_wanted_quiz || state.wanted_quiz.empty() || !state.catalog_loaded) return;
    for (std::size_t i = 0; i < state.banks.size(); ++i) {
        BankSlot& slot = state.banks[i];
        if (slot.id != state.wanted_quiz) continue;
        if (slot.state == BankSlot::State::Loading) return;
        state.opened_wanted_quiz = true;
        if (slot.state == BankSlot::State::Ready) open_quiz(state, static_cast<int>(i), false);
        return;
    }
    state.opened_wanted_quiz = true;  // not in the catalog: the catalog says so
}

}  // namespace

// open_wanted_quiz (run by every poll) sets opened_wanted_quiz once the quiz opened, its bank
// failed, or the catalog does not list it: until then it is still on its way.
bool opening_quiz(const AppState& state) {
    return !state.wanted_quiz.empty() && !state.opened_wanted_quiz && state.catalog_error.empty();
}

bool wants_dark(const AppState& state) {
    switch (state.preferences.theme) {
    case ui::ThemeChoice::Dark: return true;
    case ui::ThemeChoice::Light: return false;
    default: return platform::system_prefers_dark();
    }
}

void start(AppState& state) {
    state.wanted_quiz = platform::url_parameter("quiz");
    state.wanted_bank_url = platform::url_parameter("bank");
    state.embed = platform::url_parameter("embed") == "1";
    state.storage_persistent = platform::storage_is_persistent();
    state.storage_notice_visible = !state.storage_persistent;
    state.progress_store = std::make_unique<ProgressStore>(platform::storage(), "");
    state.seed_salt = platform::random_u64();
    load_preferences(state);
    state.font_request = platform::start_fetch(font_url);
    if (!state.wanted_bank_url.empty()) {
        // A bank under development: shown on its own, without the catalog.
        BankSlot slot;
        slot.url = state.wanted_bank_url;
        state.banks.push_back(std::move(slot));
        fetch_bank(state.banks.back());
        state.catalog_loaded = true;
    } else {
        state.catalog_request = platform::start_fetch(catalog_url);
    }
}

bool poll(AppState& state) {
    bool changed = false;
    platform::FetchResult result;
    while (platform::take_fetch_result(result)) {
        changed = true;
        if (result.request_id == state.font_request) {
            if (result.http_status >= 200 && result.http_status < 300) state.font_data = std::move(result.body);
            else state.catalog_error = std::string(font_url) + ": " + result.error;
            continue;
        }
        if (result.request_id == state.catalog_request) {
            on_catalog(state, result);
            continue;
        }
        for (auto& slot : state.banks) {
            if (slot.fetch_request != result.request_id) continue;
            on_bank(state, slot, result);
            if (!state.wanted_bank_url.empty() && slot.bank) state.wanted_quiz = slot.id;
        }
    }
    if (state.screen == Screen::Loading && state.catalog_loaded && !state.font_data.empty())
        state.screen = Screen::Catalog;
    open_wanted_quiz(state);

    // Another tab saved progress: merge it in, so finishing here never overwrites it.
    for (const auto& key : platform::take_changed_storage_keys()) {
        for (auto& slot : state.banks) {
            if (!slot.bank || !state.progress_store || key != state.progress_store->key_for(slot.bank->id)) continue;
            auto loaded = state.progress_store->load(slot.bank->id);
            merge_progress(slot.progress, loaded.record);
            changed = true;
        }
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
    if (platform::take_picked_file(picked) && state.progress_store) {
        ImportSummary summary = state.progress_store->import_all(picked);
        char buffer[200];
        if (summary.ok) {
            int added = 0;
            for (const auto& bank : summary.banks) added += bank.merge.attempts_added;
            std::snprintf(buffer, sizeof buffer, ui::tr(state.preferences.language, ui::Str::ImportSummary),
                          static_cast<int>(summary.banks.size()), added);
            state.import_message = buffer;
            for (auto& slot : state.banks) load_progress(state, slot);
        } else {
            state.import_message = ui::tr(state.preferences.language, ui::Str::ImportFailed);
        }
        for (const auto& problem : summary.problems) state.import_message += "\n" + problem;
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
    case Kind::SetTypedAnswer:
        if (!state.feedback) state.draft.typed = action.text.substr(0, 1000);
        break;
    case Kind::Check: check_current(state); break;
    case Kind::Next: go_next(state); break;
    case Kind::Retry: {
        const Bank* bank = state.active();
        if (!bank) break;
        state.previous_results.reset();
        begin_attempt(state, retry_all(*bank, next_seed(state), now()));
        break;
    }
    case Kind::ReviewMistakes: {
        const Bank* bank = state.active();
        if (!bank || !state.results || missed_question_ids(*state.results).empty()) break;
        state.previous_results = state.results;
        begin_attempt(state, retry_missed(*bank, *state.results, next_seed(state), now()));
        break;
    }
    case Kind::BackToCatalog:
        state.screen = Screen::Catalog;
        state.session.reset();
        state.feedback.reset();
        state.results.reset();
        state.active_bank = -1;
        break;
    case Kind::OpenSettings:
        if (state.screen != Screen::Settings) state.screen_before_settings = state.screen;
        state.screen = Screen::Settings;
        break;
    case Kind::CloseSettings:
        state.screen = state.screen_before_settings;
        state.import_message.clear();
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
        state.preferences.text_scale = clamp_text_scale(action.number);
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
        break;
    }
}

Action action_from_page(AppState& state, const std::string& text) {
    json message = parse(text);
    Action action;
    std::string type = string_field(message, "type");
    auto bank_index = [&](const std::string& id) {
        for (std::size_t i = 0; i < state.banks.size(); ++i)
            if (state.banks[i].id == id) return static_cast<int>(i);
        return -1;
    };
    using Kind = Action::Kind;
    if (type == "open" || type == "start-over" || type == "retry-load") {
        action.kind = type == "open" ? Kind::OpenQuiz : type == "start-over" ? Kind::StartOver : Kind::RetryLoad;
        action.bank = bank_index(string_field(message, "quiz"));
        if (action.bank < 0) action.kind = Kind::None;
    } else if (type == "select") {
        action.kind = Kind::SelectChoice;
        action.choice_id = string_field(message, "choice");
    } else if (type == "type") {
        action.kind = Kind::SetTypedAnswer;
        action.text = string_field(message, "text");
    } else if (type == "check") {
        action.kind = Kind::Check;
    } else if (type == "next") {
        action.kind = Kind::Next;
    } else if (type == "retry") {
        action.kind = Kind::Retry;
    } else if (type == "review") {
        action.kind = Kind::ReviewMistakes;
    } else if (type == "catalog") {
        action.kind = Kind::BackToCatalog;
    } else if (type == "settings") {
        action.kind = Kind::OpenSettings;
    } else if (type == "close-settings") {
        action.kind = Kind::CloseSettings;
    } else if (type == "language") {
        action.kind = ui::language_from_code(string_field(message, "value"), action.language) ? Kind::SetLanguage
                                                                                              : Kind::None;
    } else if (type == "theme") {
        action.kind = theme_from_name(string_field(message, "value"), action.theme) ? Kind::SetTheme : Kind::None;
    } else if (type == "text-size") {
        if (message.is_object() && message.contains("value") && message["value"].is_number()) {
            action.kind = Kind::SetTextScale;
            action.number = message["value"].get<float>();
        }
    } else if (type == "export") {
        action.kind = Kind::ExportProgress;
    } else if (type == "import") {
        action.kind = Kind::ImportProgress;
    } else if (type == "dismiss") {
        action.kind = Kind::DismissNotice;
    }
    return action;
}

namespace {

const char* screen_name(Screen screen) {
    switch (screen) {
    case Screen::Loading: return "loading";
    case Screen::Catalog: return "catalog";
    case Screen::Question: return "question";
    case Screen::Results: return "results";
    case Screen::Settings: return "settings";
    }
    return "loading";
}

const char* type_name(QuestionType type) { return to_string(type).data(); }

json describe_correct(const Bank& bank, const Question& question, const std::string& language) {
    CorrectAnswer answer = correct_answer(question);
    json out = json::array();
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice:
        for (const auto& id : answer.choice_ids)
            if (const Choice* choice = question.find_choice(id)) out.push_back(bank.text(choice->text, language));
        break;
    case QuestionType::TrueFalse: out.push_back(answer.true_false ? "true" : "false"); break;
    case QuestionType::Numeric: {
        char buffer[64];
        if (answer.numeric.form == NumericAnswer::Form::Range)
            std::snprintf(buffer, sizeof buffer, "%g – %g", answer.numeric.min, answer.numeric.max);
        else
            std::snprintf(buffer, sizeof buffer, "%g ± %g", answer.numeric.value, answer.numeric.tolerance);
        out.push_back(buffer);
        break;
    }
    case QuestionType::ShortText:
        if (!answer.accepted_texts.empty()) out.push_back(bank.text(answer.accepted_texts.front(), language));
        break;
    }
    return out;
}

}  // namespace

std::string describe(const AppState& state, const std::string& items_json) {
    const std::string language = state.language_code();
    ui::Language ui_language = state.preferences.language;
    json out = {{"screen", screen_name(state.screen)},
                {"language", language},
                {"embed", state.embed},
                {"storagePersistent", state.storage_persistent},
                {"notice", state.storage_notice_visible     ? ui::tr(ui_language, ui::Str::StorageUnavailable)
                           : state.write_failed_notice_visible ? ui::tr(ui_language, ui::Str::StorageWriteFailed)
                           : state.newer_version_notice_visible ? ui::tr(ui_language, ui::Str::NewerVersionRecord)
                                                               : ""}};
    json banks = json::array();
    for (const auto& slot : state.banks) {
        json b = {{"id", slot.id}, {"url", slot.url}};
        switch (slot.state) {
        case BankSlot::State::Loading: b["state"] = "loading"; break;
        case BankSlot::State::Ready: b["state"] = "ready"; break;
        case BankSlot::State::FetchFailed: b["state"] = "fetch-failed"; b["error"] = slot.fetch_error; break;
        case BankSlot::State::Invalid: {
            b["state"] = "invalid";
            json problems = json::array();
            for (const auto& d : slot.diagnostics)
                if (d.severity == Diagnostic::Severity::Error) problems.push_back(format_diagnostic(d));
            b["problems"] = problems;
            break;
        }
        }
        if (slot.bank) {
            b["title"] = slot.bank->text(slot.bank->title, language);
            b["description"] = slot.bank->text(slot.bank->description, language);
            b["questions"] = slot.question_count;
            b["languages"] = slot.bank->languages;
            b["inProgress"] = slot.progress.attempt_in_progress.has_value();
            b["attempts"] = slot.progress.finished_attempts.size();
            if (slot.progress.best_percent) b["bestPercent"] = *slot.progress.best_percent;
        }
        banks.push_back(b);
    }
    out["banks"] = banks;
    if (!state.catalog_error.empty()) out["catalogError"] = state.catalog_error;

    const Bank* bank = state.active();
    if (bank) out["quiz"] = {{"id", bank->id}, {"title", bank->text(bank->title, language)}};
    if (bank && state.session && state.screen == Screen::Question) {
        const Session& session = *state.session;
        const Question* question = current_question(session, *bank);
        if (question) {
            json q = {{"index", session.current + 1},
                      {"total", session.questions.size()},
                      {"id", question->id},
                      {"type", type_name(question->type)},
                      {"prompt", bank->text(question->prompt, language)},
                      {"typed", state.draft.typed}};
            if (!question->unit.empty()) q["unit"] = bank->text(question->unit, language);
            json choices = json::array();
            const SessionQuestion& slot = session.questions[session.current];
            auto state_of = [&](const std::string& id, bool correct) {
                bool selected = std::find(state.draft.selected.begin(), state.draft.selected.end(), id) !=
                                state.draft.selected.end();
                if (state.feedback && state.feedback->problem == InputProblem::None) {
                    for (const auto& f : state.feedback->choices)
                        if (f.choice_id == id) selected = f.selected;
                }
                return json{{"selected", selected}, {"correct", state.feedback ? json(correct) : json(nullptr)}};
            };
            if (question->type == QuestionType::TrueFalse) {
                for (const char* id : {"true", "false"}) {
                    json c = {{"id", id},
                              {"text", ui::tr(ui_language, std::string(id) == "true" ? ui::Str::TrueLabel
                                                                                     : ui::Str::FalseLabel)}};
                    c.update(state_of(id, (std::string(id) == "true") == question->true_false_answer));
                    choices.push_back(c);
                }
            } else {
                for (const Choice* choice : choices_in_order(slot, *question)) {
                    json c = {{"id", choice->id}, {"text", bank->text(choice->text, language)}};
                    c.update(state_of(choice->id, choice->correct));
                    if (state.feedback) {
                        for (const auto& f : state.feedback->choices)
                            if (f.choice_id == choice->id && !f.feedback.empty())
                                c["feedback"] = bank->text(f.feedback, language);
                    }
                    choices.push_back(c);
                }
            }
            q["choices"] = choices;
            if (state.feedback) {
                q["feedback"] = {{"correct", state.feedback->correct},
                                 {"score", state.feedback->score},
                                 {"explanation", bank->text(state.feedback->explanation, language)},
                                 {"correctAnswer", describe_correct(*bank, *question, language)}};
            }
            out["question"] = q;
        }
    }
    if (bank && state.results && state.screen == Screen::Results) {
        const Results& r = *state.results;
        json list = json::array();
        for (const auto& qr : r.questions) {
            const Question* question = bank->find_question(qr.question_id);
            if (!question) continue;
            // What the learner answered, in words (as the results screen shows it); null when skipped.
            json response = nullptr;
            if (qr.response) {
                if (question->type == QuestionType::TrueFalse) {
                    response = ui::tr(ui_language, qr.response->true_false ? ui::Str::TrueLabel : ui::Str::FalseLabel);
                } else if (question->type == QuestionType::SingleChoice ||
                           question->type == QuestionType::MultipleChoice) {
                    std::string chosen;
                    for (const auto& id : qr.response->choice_ids)
                        if (const Choice* choice = question->find_choice(id))
                            chosen += (chosen.empty() ? "" : "; ") + bank->text(choice->text, language);
                    if (!chosen.empty()) response = chosen;
                } else {
                    response = qr.response->text;
                }
            }
            list.push_back({{"id", qr.question_id},
                            {"prompt", bank->text(question->prompt, language)},
                            {"outcome", to_string(qr.outcome)},
                            {"response", response},
                            {"correctAnswer", describe_correct(*bank, *question, language)},
                            {"explanation", bank->text(question->explanation, language)}});
        }
        out["results"] = {{"score", r.score},        {"maxScore", r.max_score}, {"percent", r.percent},
                          {"passed", r.passed},      {"passPercent", r.pass_percent},
                          {"durationMs", r.duration_ms}, {"questions", list},
                          {"missed", missed_question_ids(r).size()}};
    }
    if (!state.import_message.empty()) out["importMessage"] = state.import_message;
    if (!state.wanted_quiz.empty() && state.opened_wanted_quiz && state.active_bank < 0 &&
        std::none_of(state.banks.begin(), state.banks.end(),
                     [&](const BankSlot& slot) { return slot.id == state.wanted_quiz; }))
        out["quizNotFound"] = state.wanted_quiz;
    // The interface words of the current language, so the page's accessibility mirror names its
    // controls exactly as the canvas does. printf-style ones ("%d of %d") are formatted by the page.
    static constexpr std::pair<const char*, ui::Str> label_ids[] = {
        {"appName", ui::Str::AppName},         {"loading", ui::Str::Loading},
        {"loadingQuiz", ui::Str::LoadingQuiz}, {"catalog", ui::Str::Catalog},
        {"catalogEmpty", ui::Str::CatalogEmpty}, {"questionsCount", ui::Str::QuestionsCount},
        {"languages", ui::Str::Languages},     {"bestScore", ui::Str::BestScore},
        {"notTakenYet", ui::Str::NotTakenYet}, {"start", ui::Str::Start},
        {"continue", ui::Str::Continue},       {"startOver", ui::Str::StartOver},
        {"settings", ui::Str::Settings},       {"back", ui::Str::Back},
        {"check", ui::Str::Check},             {"next", ui::Str::Next},
        {"seeResults", ui::Str::SeeResults},   {"correct", ui::Str::Correct},
        {"incorrect", ui::Str::Incorrect},     {"partlyCorrect", ui::Str::PartlyCorrect},
        {"yourAnswer", ui::Str::YourAnswer},   {"correctAnswer", ui::Str::CorrectAnswer},
        {"explanation", ui::Str::Explanation}, {"selectOne", ui::Str::SelectOne},
        {"selectAll", ui::Str::SelectAll},     {"trueLabel", ui::Str::TrueLabel},
        {"falseLabel", ui::Str::FalseLabel},   {"typeNumber", ui::Str::TypeNumber},
        {"typeAnswer", ui::Str::TypeAnswer},   {"questionOf", ui::Str::QuestionOf},
        {"results", ui::Str::Results},         {"score", ui::Str::Score},
        {"passed", ui::Str::Passed},           {"notPassed", ui::Str::NotPassed},
        {"passMark", ui::Str::PassMark},       {"timeTaken", ui::Str::TimeTaken},
        {"retry", ui::Str::Retry},             {"reviewMistakes", ui::Str::ReviewMistakes},
        {"backToCatalog", ui::Str::BackToCatalog}, {"noAnswer", ui::Str::NoAnswer},
        {"theme", ui::Str::Theme},             {"themeLight", ui::Str::ThemeLight},
        {"themeDark", ui::Str::ThemeDark},     {"themeSystem", ui::Str::ThemeSystem},
        {"textSize", ui::Str::TextSize},       {"language", ui::Str::Language},
        {"progress", ui::Str::Progress},       {"exportProgress", ui::Str::ExportProgress},
        {"importProgress", ui::Str::ImportProgress}, {"dismiss", ui::Str::Dismiss},
        {"couldNotLoad", ui::Str::CouldNotLoad}, {"invalidBank", ui::Str::InvalidBank},
        {"retryLoad", ui::Str::RetryLoad},     {"quizNotFound", ui::Str::QuizNotFound},
        {"storageUnavailable", ui::Str::StorageUnavailable},
    };
    json labels = json::object();
    for (const auto& [key, id] : label_ids) labels[key] = ui::tr(ui_language, id);
    out["labels"] = labels;
    out["preferences"] = {{"theme", theme_name(state.preferences.theme)}, {"textScale", state.preferences.text_scale}};
    json items = parse(items_json);
    out["items"] = items.is_discarded() ? json::array() : items;
    return out.dump();
}

}  // namespace imquiz::app
