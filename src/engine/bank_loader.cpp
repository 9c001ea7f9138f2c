#include "engine/bank_loader.h"

#include "engine/hash.h"
#include "engine/json/fields.h"
#include "engine/json/reader.h"
#include "engine/limits.h"
#include "engine/markdown.h"

#include <algorithm>
#include <set>
#include <array>

namespace imquiz {
namespace {

constexpr std::string_view bank_format = "imquiz-bank";
constexpr std::string_view catalog_format = "imquiz-catalog";

// Values that must be unique (question ids, choice ids...) among the elements of one array:
// remembers which element first had each and reports a repeat as
// `duplicate <what> "x" (also at <array>[<first>])`.
class UniqueValues {
public:
    // `array_path` must outlive this.
    UniqueValues(DiagnosticCollector& report, std::string_view what, const JsonPath& array_path)
        : report_(report), what_(what), array_path_(array_path) {}

    // `value` too (a string of the document being validated).
    void add(std::string_view value, std::size_t index, const JsonPath& report_path) {
        std::size_t first = index;
        if (!remember(value, first))
            report_.error(report_path.str(), "duplicate " + std::string(what_) + " " +
                                                 in_quotes(value) + " (also at " +
                                                 array_path_.index(first).str() + ")");
    }

private:
    struct Entry {
        std::string_view value;
        std::size_t index = unused;
    };
    static constexpr std::size_t unused = static_cast<std::size_t>(-1);

    // False when `value` was there already; `index` then becomes where it was first. Usually a
    // handful (the choices of a question): scanned in place. Many (the questions of a bank): a
    // hash table with open addressing (no allocation per value: a bank has 20,000 of them).
    bool remember(std::string_view value, std::size_t& index) {
        if (table_.empty()) {
            for (std::size_t i = 0; i < few_count_; ++i) {
                if (few_[i].value == value) {
                    index = few_[i].index;
                    return false;
                }
            }
            if (few_count_ < few_.size()) {
                few_[few_count_++] = Entry{value, index};
                return true;
            }
            grow();
        } else if ((count_ + 1) * 2 > table_.size()) {
            grow();
        }
        Entry& slot = find(value);
        if (slot.index != unused) {
            index = slot.index;
            return false;
        }
        slot = Entry{value, index};
        ++count_;
        return true;
    }

    Entry& find(std::string_view value) {
        Fnv1a hash;
        hash.bytes(value.data(), value.size());
        const std::size_t mask = table_.size() - 1;
        for (std::size_t at = static_cast<std::size_t>(hash.value()) & mask;; at = (at + 1) & mask)
            if (table_[at].index == unused || table_[at].value == value)
                return table_[at];
    }

    void grow() {
        std::vector<Entry> old = std::move(table_);
        table_.assign(old.empty() ? 64 : old.size() * 2, Entry{});
        for (const Entry& entry : old)
            if (entry.index != unused)
                find(entry.value) = entry;
        for (std::size_t i = 0; i < few_count_; ++i)
            find(few_[i].value) = few_[i];
        count_ += few_count_;
        few_count_ = 0;
    }

    DiagnosticCollector& report_;
    std::string_view what_;
    const JsonPath& array_path_;
    std::array<Entry, 8> few_;
    std::size_t few_count_ = 0;
    std::vector<Entry> table_;   // a power of two in size, at most half full
    std::size_t count_ = 0;
};

const std::vector<std::string_view> bank_fields = {
    "$schema", "format", "version", "id", "textFormat", "title", "description", "languages",
    "defaultLanguage", "notes", "settings", "questions", "feedbackRanges"};
const std::vector<std::string_view> settings_fields = {
    "shuffleChoices", "shuffleQuestions", "poolSize", "passPercent", "partialCredit", "maxTries", "tryPenalty", "mode", "showAfterSubmit", "timeLimitMinutes", "maxAttempts"};
const std::vector<std::string_view> common_question_fields = {"id", "type", "prompt", "explanation", "tags",
                                                              "hints", "maxTries", "tryPenalty"};
const std::vector<std::string_view> hint_fields = {"text", "cost"};
const std::vector<std::string_view> range_fields = {"from", "to", "text"};
// A question may have many tries, but a bank is not a slot machine.
constexpr long long most_tries = 10;
const std::vector<std::string_view> choice_fields = {"id", "text", "correct", "feedback"};
const std::vector<std::string_view> match_item_fields = {"id", "text", "match", "feedback"};
const std::vector<std::string_view> answer_fields = {"id", "text"};
const std::vector<std::string_view> numeric_answer_fields = {"value", "tolerance", "min", "max"};
const std::vector<std::string_view> blank_fields = {"id", "accept", "answer", "unit", "choices", "feedback"};
const std::vector<std::string_view> catalog_fields = {"$schema", "format", "version", "notes",
                                                      "banks"};
const std::vector<std::string_view> catalog_entry_fields = {"id", "file", "formulas"};

const std::vector<std::string_view> all_type_specific_fields = {"choices", "answer", "unit",
                                                                "accept", "items", "answers", "blanks"};

std::vector<std::string_view> concatenated(std::vector<std::string_view> a,
                                           const std::vector<std::string_view>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The fields a question of `type` may have (made once: a bank may have 20,000 questions).
const std::vector<std::string_view>& question_fields(QuestionType type) {
    static const std::vector<std::string_view> by_type[] = {
        concatenated(common_question_fields, {"choices"}),             // SingleChoice
        concatenated(common_question_fields, {"choices"}),             // MultipleChoice
        concatenated(common_question_fields, {"answer"}),              // TrueFalse
        concatenated(common_question_fields, {"answer", "unit"}),      // Numeric
        concatenated(common_question_fields, {"accept"}),              // ShortText
        concatenated(common_question_fields, {"items", "answers"}),    // Matching
        concatenated(common_question_fields, {"items"}),               // Ordering
        concatenated(common_question_fields, {"blanks"}),              // Cloze
    };
    return by_type[static_cast<int>(type)];
}

const std::vector<std::string_view> any_question_fields =
    concatenated(common_question_fields, all_type_specific_fields);

// Checks the top of a document: an object with the right "format" and a supported "version".
// False when reading further would only produce noise (another kind of file, another version).
bool check_header(const JsonValue& root, FieldReader& read, DiagnosticCollector& report,
                  std::string_view expected_format, int supported_version,
                  std::string_view document_name) {
    if (!read.expect_object(root, ""))
        return false;
    if (const JsonValue* format = read.required(root, "", "format")) {
        if (auto name = read.string(*format, "format"); name && *name != expected_format) {
            report.error("format", "format must be " + in_quotes(expected_format) + ", got " +
                                       in_quotes(*name));
            return false;
        }
    }
    if (const JsonValue* version = read.required(root, "", "version")) {
        if (auto number = read.whole_number(*version, "version");
            number && *number != supported_version) {
            report.error("version", "unsupported " + std::string(document_name) + " version " +
                                        std::to_string(*number) + ": this ImQuiz reads version " +
                                        std::to_string(supported_version));
            return false;
        }
    }
    return true;
}

class BankValidator {
public:
    BankValidator(DiagnosticCollector& report, const LoadLimits& limits)
        : report_(report), limits_(limits), read_(report) {}

    // The formulas the texts held (validate() first).
    std::vector<Formula> take_formulas() { return std::move(formulas_); }

    std::optional<Bank> validate(const JsonValue& root) {
        if (!check_header(root, read_, report_, bank_format, bank_format_version, "bank"))
            return std::nullopt;
        read_.check_fields(root, "", bank_fields);

        Bank bank;
        if (const JsonValue* id = read_.required(root, "", "id"))
            bank.id = read_.slug(*id, "id", "data-parallelism").value_or("");
        read_languages(root, bank);
        read_text_format(root, bank);
        if (const JsonValue* title = read_.required(root, "", "title"))
            bank.title = text(*title, "title");
        if (const JsonValue* description = find_field(root, "description"))
            bank.description = text(*description, "description");
        if (const JsonValue* notes = find_field(root, "notes"))
            bank.notes = read_.string(*notes, "notes").value_or("");
        if (const JsonValue* settings = find_field(root, "settings"))
            read_settings(*settings, bank.settings);
        exam_ = bank.settings.mode == Settings::Mode::Exam;
        if (const JsonValue* questions = read_.required(root, "", "questions"))
            read_questions(*questions, bank);
        if (const JsonValue* ranges = find_field(root, "feedbackRanges"))
            read_feedback_ranges(*ranges, bank);
        check_pool_size(bank);

        if (report_.any_error())
            return std::nullopt;
        return bank;
    }

private:
    void read_languages(const JsonValue& root, Bank& bank) {
        bool valid = true;
        if (const JsonValue* languages = read_.required(root, "", "languages")) {
            if (const auto* items = read_.array(*languages, "languages")) {
                const std::size_t limit = limits_.max_languages;
                const bool too_many = items->size() > limit;
                if (items->empty()) {
                    report_.error("languages", "languages must list at least one language");
                    valid = false;
                } else if (too_many) {
                    report_.error("languages", "too many languages: " +
                                                   std::to_string(items->size()) +
                                                   " (the limit is " + std::to_string(limit) + ")");
                    valid = false;
                }
                for (std::size_t i = 0; !too_many && i < items->size(); ++i) {
                    const std::string path = path_index("languages", i);
                    auto code = read_.string((*items)[i], path);
                    if (!code || !check_language_code(*code, path)) {
                        valid = false;
                        continue;
                    }
                    if (std::find(bank.languages.begin(), bank.languages.end(), *code) !=
                        bank.languages.end()) {
                        report_.error(path, "duplicate language " + in_quotes(*code));
                        continue;
                    }
                    bank.languages.push_back(*code);
                }
            } else {
                valid = false;
            }
        } else {
            valid = false;
        }
        if (const JsonValue* language = read_.required(root, "", "defaultLanguage")) {
            if (auto code = read_.string(*language, "defaultLanguage")) {
                if (check_language_code(*code, "defaultLanguage")) {
                    bank.default_language = *code;
                    if (valid && std::find(bank.languages.begin(), bank.languages.end(), *code) ==
                                     bank.languages.end())
                        report_.error("defaultLanguage", "defaultLanguage " + in_quotes(*code) +
                                                             " is not one of languages");
                }
            }
        }
        // Without a valid list, every translation would be reported as undeclared: skip that.
        languages_ = valid ? &bank.languages : nullptr;
    }

    void read_text_format(const JsonValue& root, Bank& bank) {
        const JsonValue* field = find_field(root, "textFormat");
        if (!field) return;
        auto name = read_.string(*field, "textFormat");
        if (!name) return;
        if (*name == "markdown") bank.text_format = TextFormat::Markdown;
        else if (*name != "plain")
            report_.error("textFormat", "textFormat must be \"plain\" or \"markdown\", got " + in_quotes(*name));
        markdown_ = bank.text_format == TextFormat::Markdown;
        images_ = &bank.images;
    }

    // A Markdown text is parsed here once, so that an image without alt text or a javascript:
    // link is the author's error at load time, with the text's path, not a surprise on screen.
    void check_markdown(std::string_view text, const JsonPath& path) {
        if (!markdown_) return;
        MarkdownUse use = markdown_use(text);
        for (const std::string& problem : use.problems) report_.error(path.str(), problem);
        for (auto& [tex, display] : use.formulas) formulas_.push_back({std::move(tex), display, path.str()});
        if (images_ == nullptr) return;
        for (std::string& source : use.images)
            if (images_seen_.insert(source).second) images_->push_back({std::move(source), path.str()});
    }

    bool check_language_code(const std::string& code, const JsonPath& path) {
        if (is_valid_language_code(code))
            return true;
        report_.error(path.str(), "invalid language code " + in_quotes(code) +
                                ": use 2-3 lowercase letters, optionally with a region, like "
                                "\"en\" or \"pt-BR\"");
        return false;
    }

    LocalizedText text(const JsonValue& value, const JsonPath& path) {
        LocalizedText result;
        if (auto plain = as_string(value)) {
            if (is_blank_text(*plain))
                report_.error(path.str(), "text is empty");
            check_markdown(*plain, path);
            return LocalizedText::same_in_all_languages(std::string(*plain));
        }
        if (!value.is_object()) {
            read_.type_error(path, "a text (a string, or an object of translations)", value);
            return result;
        }
        if (value.empty()) {
            report_.error(path.str(), "text has no translations");
            return result;
        }
        // Which of the bank's languages this text has (found by one pass over the translations:
        // a text may have a great many).
        std::vector<char>& present = languages_present_;
        present.assign(languages_ == nullptr ? 0 : languages_->size(), 0);
        for (const JsonValue& translation : value.children()) {
            const std::string_view language = translation.key();
            const JsonPath translation_path = path.field(language);
            // A declared language is a valid code (read_languages checked): only another one
            // needs checking.
            const auto declared = languages_ == nullptr
                                      ? std::vector<std::string>::const_iterator()
                                      : std::find(languages_->begin(), languages_->end(), language);
            if (languages_ == nullptr || declared == languages_->end()) {
                if (!is_valid_language_code(language)) {
                    check_language_code(std::string(language), translation_path);
                    continue;
                }
                if (languages_ != nullptr) {
                    report_.error(translation_path.str(), "language " + in_quotes(language) +
                                                              " is not in the bank's languages");
                    continue;
                }
            } else {
                present[static_cast<std::size_t>(declared - languages_->begin())] = 1;
            }
            const auto string = as_string(translation);
            if (!string) {
                read_.type_error(translation_path, "a string", translation);
                continue;
            }
            if (is_blank_text(*string))
                report_.error(translation_path.str(), "text is empty");
            check_markdown(*string, translation_path);
            result.set(std::string(language), std::string(*string));
        }
        if (languages_ != nullptr && !report_.full()) {
            std::string missing;
            int missing_count = 0;
            for (std::size_t i = 0; i < languages_->size(); ++i) {
                if (present[i])
                    continue;
                missing += (missing_count++ == 0 ? "" : ", ") + in_quotes((*languages_)[i]);
            }
            if (missing_count == 1)
                report_.warning(path.str(), "missing translation for " + missing);
            else if (missing_count > 1)
                report_.warning(path.str(), "missing translations for " + missing);
        }
        return result;
    }

    void read_settings(const JsonValue& value, Settings& settings) {
        if (!read_.expect_object(value, "settings"))
            return;
        read_.check_fields(value, "settings", settings_fields);
        const auto flag = [&](std::string_view name, bool& target) {
            if (const JsonValue* field = find_field(value, name))
                target = read_.boolean(*field, path_field("settings", name)).value_or(target);
        };
        flag("shuffleChoices", settings.shuffle_choices);
        flag("shuffleQuestions", settings.shuffle_questions);
        flag("partialCredit", settings.partial_credit);
        if (const JsonValue* field = find_field(value, "poolSize")) {
            if (auto size = read_.whole_number(*field, "settings.poolSize")) {
                if (*size < 0)
                    report_.error("settings.poolSize",
                                  "poolSize must not be negative, got " + std::to_string(*size));
                else
                    settings.pool_size = static_cast<int>(std::min<long long>(*size, 1 << 30));
            }
        }
        if (const JsonValue* field = find_field(value, "passPercent")) {
            if (auto percent = read_.whole_number(*field, "settings.passPercent")) {
                if (*percent < 0 || *percent > 100)
                    report_.error("settings.passPercent",
                                  "passPercent must be between 0 and 100, got " +
                                      std::to_string(*percent));
                else
                    settings.pass_percent = static_cast<int>(*percent);
            }
        }
        if (const JsonValue* field = find_field(value, "maxTries"))
            if (auto tries = read_max_tries(*field, "settings.maxTries")) settings.max_tries = *tries;
        if (const JsonValue* field = find_field(value, "tryPenalty"))
            if (auto penalty = share(*field, "settings.tryPenalty", "tryPenalty")) settings.try_penalty = *penalty;
        if (const JsonValue* field = find_field(value, "mode")) {
            if (auto mode = read_.string(*field, "settings.mode")) {
                if (*mode == "exam") settings.mode = Settings::Mode::Exam;
                else if (*mode != "practice")
                    report_.error("settings.mode", "mode is \"practice\" or \"exam\", got " + in_quotes(*mode));
            }
        }
        if (const JsonValue* field = find_field(value, "showAfterSubmit")) {
            if (auto shown = read_.string(*field, "settings.showAfterSubmit")) {
                if (*shown == "score") settings.review_after_submit = false;
                else if (*shown != "review")
                    report_.error("settings.showAfterSubmit", "showAfterSubmit is \"review\" or \"score\", got " + in_quotes(*shown));
            }
        }
        if (const JsonValue* field = find_field(value, "timeLimitMinutes")) {
            if (auto minutes = read_.number(*field, "settings.timeLimitMinutes")) {
                if (!(*minutes >= 0 && *minutes <= 24 * 60))
                    report_.error("settings.timeLimitMinutes",
                                  "timeLimitMinutes is from 0 (no limit) to 1440 (a day), got " + format_number(*minutes));
                else if (*minutes > 0 && settings.mode != Settings::Mode::Exam)
                    report_.error("settings.timeLimitMinutes", "a time limit is for an exam: add \"mode\": \"exam\"");
                else
                    settings.time_limit_minutes = *minutes;
            }
        }
        if (const JsonValue* field = find_field(value, "maxAttempts")) {
            if (auto attempts = read_.whole_number(*field, "settings.maxAttempts")) {
                const auto most = static_cast<long long>(ProgressLimits{}.kept_finished_attempts);
                if (*attempts < 0 || *attempts > most)
                    report_.error("settings.maxAttempts", "maxAttempts is from 0 (no limit) to " + std::to_string(most) +
                                                              ", got " + std::to_string(*attempts));
                else if (settings.mode != Settings::Mode::Exam)
                    report_.error("settings.maxAttempts", "a limit on attempts is for an exam: add \"mode\": \"exam\"");
                else
                    settings.max_attempts = static_cast<int>(*attempts);
            }
        }
        // An exam says nothing before the end: a second try would need the first one told.
        if (settings.mode == Settings::Mode::Exam && settings.max_tries > 1)
            report_.error("settings.maxTries", "an exam gives one try per question (it tells nothing before the end); "
                                               "maxTries is for practice");
    }

    std::optional<int> read_max_tries(const JsonValue& value, const JsonPath& path) {
        auto tries = read_.whole_number(value, path);
        if (!tries) return std::nullopt;
        if (*tries < 1 || *tries > most_tries) {
            report_.error(path.str(), "maxTries must be between 1 and " + std::to_string(most_tries) + ", got " + std::to_string(*tries));
            return std::nullopt;
        }
        return static_cast<int>(*tries);
    }

    // A share of a question's points: 0..1.
    std::optional<double> share(const JsonValue& value, const JsonPath& path, std::string_view name) {
        auto number = read_.number(value, path);
        if (!number) return std::nullopt;
        if (!(*number >= 0 && *number <= 1)) {
            report_.error(path.str(), std::string(name) + " is a share of the question's points, from 0 to 1 (0.25 is a quarter), got " +
                                    format_number(*number));
            return std::nullopt;
        }
        return number;
    }

    void read_hints(const JsonValue& value, const JsonPath& path, Question& question) {
        const auto* items = read_.array(value, path);
        if (items == nullptr) return;
        double total = 0;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const JsonPath hint_path = path.index(i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, hint_path)) continue;
            read_.check_fields(item, hint_path, hint_fields);
            Hint hint;
            if (const JsonValue* words = read_.required(item, hint_path, "text")) hint.text = text(*words, hint_path.field("text"));
            if (const JsonValue* cost = find_field(item, "cost"))
                hint.cost = share(*cost, hint_path.field("cost"), "cost").value_or(0);
            total += hint.cost;
            question.hints.push_back(std::move(hint));
        }
        if (total > 1 + 1e-9)
            report_.error(path.str(), "the hints cost " + format_number(total) +
                                    " of the question's points together; at most 1 (all of them)");
    }

    void read_feedback_ranges(const JsonValue& value, Bank& bank) {
        const JsonPath path("feedbackRanges");
        const auto* items = read_.array(value, path);
        if (items == nullptr) return;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const JsonPath range_path = path.index(i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, range_path)) continue;
            read_.check_fields(item, range_path, range_fields);
            ScoreRange range;
            bool valid = true;
            const auto percent = [&](std::string_view name, int& target) {
                const JsonValue* field = read_.required(item, range_path, name);
                if (field == nullptr) return void(valid = false);
                auto number = read_.whole_number(*field, range_path.field(name));
                if (!number) return void(valid = false);
                if (*number < 0 || *number > 100) {
                    report_.error(range_path.field(name).str(), std::string(name) + " must be a whole percent from 0 to 100, got " +
                                                              std::to_string(*number));
                    return void(valid = false);
                }
                target = static_cast<int>(*number);
            };
            percent("from", range.from);
            percent("to", range.to);
            if (const JsonValue* words = read_.required(item, range_path, "text")) range.text = text(*words, range_path.field("text"));
            if (!valid) continue;
            if (range.from > range.to) {
                report_.error(range_path.str(), "from (" + std::to_string(range.from) + ") is above to (" + std::to_string(range.to) + ")");
                continue;
            }
            for (std::size_t j = 0; j < bank.feedback_ranges.size(); ++j) {
                const ScoreRange& other = bank.feedback_ranges[j];
                if (range.from <= other.to && other.from <= range.to) {
                    report_.error(range_path.str(), "the range " + std::to_string(range.from) + "-" + std::to_string(range.to) +
                                                  "% overlaps feedbackRanges[" + std::to_string(j) + "] (" +
                                                  std::to_string(other.from) + "-" + std::to_string(other.to) + "%)");
                    valid = false;
                    break;
                }
            }
            if (valid) bank.feedback_ranges.push_back(std::move(range));
        }
    }

    void check_pool_size(const Bank& bank) {
        const int pool = bank.settings.pool_size;
        if (pool > 0 && !bank.questions.empty() &&
            static_cast<std::size_t>(pool) > bank.questions.size())
            report_.error("settings.poolSize",
                          "poolSize " + std::to_string(pool) +
                              " is larger than the number of questions (" +
                              std::to_string(bank.questions.size()) + ")");
    }

    void read_questions(const JsonValue& value, Bank& bank) {
        const auto* items = read_.array(value, "questions");
        if (items == nullptr)
            return;
        if (items->empty())
            report_.error("questions", "a bank needs at least one question");
        // Over LoadLimits::max_questions, the reader stopped and reported it (read_document).
        const JsonPath path("questions");
        bank.questions.reserve(items->size());
        for (std::size_t i = 0; i < items->size() && !report_.full(); ++i) {
            Question question;
            if (read_question((*items)[i], path.index(i), i, question))
                bank.questions.push_back(std::move(question));
        }
    }

    bool read_question(const JsonValue& value, const JsonPath& path, std::size_t index,
                       Question& question) {
        if (!read_.expect_object(value, path))
            return false;
        std::optional<QuestionType> type;
        if (const JsonValue* type_field = read_.required(value, path, "type")) {
            const JsonPath type_path = path.field("type");
            if (auto name = as_string(*type_field)) {
                type = question_type_from_string(*name);
                if (!type) {
                    const std::vector<std::string_view> names = {
                        "single_choice", "multiple_choice", "true_false", "numeric",
                        "short_text", "matching", "ordering", "cloze"};
                    std::string message = "unknown question type " + in_quotes(*name);
                    if (auto suggestion = closest_name(*name, names))
                        message += " (did you mean " + in_quotes(*suggestion) + "?)";
                    else
                        message += " (expected single_choice, multiple_choice, true_false, "
                                   "numeric, short_text, matching, ordering or cloze)";
                    report_.error(type_path.str(), message);
                }
            } else {
                read_.type_error(type_path, "a string", *type_field);
            }
        }
        if (type) {
            question.type = *type;
            static const std::string not_used_by[] = {
                "is not used by single_choice questions",
                "is not used by multiple_choice questions", "is not used by true_false questions",
                "is not used by numeric questions", "is not used by short_text questions",
                "is not used by matching questions", "is not used by ordering questions",
                "is not used by cloze questions"};
            read_.check_fields(value, path, question_fields(*type), all_type_specific_fields,
                               not_used_by[static_cast<int>(*type)]);
        } else {
            // Unknown type: which fields belong is unclear; only flag names nobody knows.
            read_.check_fields(value, path, any_question_fields);
        }

        if (const JsonValue* id = read_.required(value, path, "id")) {
            question.id = read_.slug(*id, path.field("id"), "replica-contents").value_or("");
            if (!question.id.empty())
                question_ids_.add(*as_string(*id), index, path.field("id"));
        }
        if (const JsonValue* prompt = read_.required(value, path, "prompt"))
            question.prompt = text(*prompt, path.field("prompt"));
        if (const JsonValue* explanation = find_field(value, "explanation"))
            question.explanation = text(*explanation, path.field("explanation"));
        else
            report_.warning(path.str(), "missing explanation");
        if (const JsonValue* tags = find_field(value, "tags"))
            read_tags(*tags, path.field("tags"), question.tags);
        if (const JsonValue* hints = find_field(value, "hints"))
            read_hints(*hints, path.field("hints"), question);
        if (const JsonValue* tries = find_field(value, "maxTries")) {
            question.max_tries = read_max_tries(*tries, path.field("maxTries"));
            if (question.max_tries > 1 && exam_)
                report_.error(path.field("maxTries").str(), "an exam gives one try per question (it tells nothing before "
                                                            "the end); maxTries is for practice");
        }
        if (const JsonValue* penalty = find_field(value, "tryPenalty"))
            question.try_penalty = share(*penalty, path.field("tryPenalty"), "tryPenalty");

        if (!type)
            return true;
        switch (*type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: {
            const JsonValue* choices = read_.required(value, path, "choices");
            if (choices != nullptr)
                read_choices(*choices, path.field("choices"), question.type == QuestionType::SingleChoice ? "single_choice" : "",
                             question.choices);
            break;
        }
        case QuestionType::TrueFalse:
            if (const JsonValue* answer = read_.required(value, path, "answer"))
                question.true_false_answer =
                    read_.boolean(*answer, path.field("answer")).value_or(false);
            break;
        case QuestionType::Numeric:
            if (const JsonValue* answer = read_.required(value, path, "answer"))
                read_numeric_answer(*answer, path.field("answer"), question.numeric_answer);
            if (const JsonValue* unit = find_field(value, "unit"))
                question.unit = text(*unit, path.field("unit"));
            break;
        case QuestionType::ShortText:
            if (const JsonValue* accept = read_.required(value, path, "accept"))
                read_accepted(*accept, path.field("accept"), question.accepted_texts);
            break;
        case QuestionType::Cloze: read_cloze(value, path, question); break;
        case QuestionType::Matching: read_matching(value, path, question); break;
        case QuestionType::Ordering:
            read_entries(value, path, "items", answer_fields, "first-step", "item",
                         [&](const JsonValue&, const JsonPath&, Choice entry) { question.choices.push_back(std::move(entry)); });
            break;
        }
        return true;
    }

    // An array `field` of objects with an id and a text (ordering items, matching answers and
    // items): at least 2, at most the choices' limit, ids unique. `each` takes every one read.
    // False when one could not be read at all (what depends on them would only repeat that).
    template <typename Each>
    bool read_entries(const JsonValue& question_value, const JsonPath& question_path, std::string_view field,
                      const std::vector<std::string_view>& fields, const char* example_id, std::string_view what,
                      Each each) {
        const JsonValue* value = read_.required(question_value, question_path, field);
        if (value == nullptr)
            return false;
        const JsonPath path = question_path.field(field);
        const auto* items = read_.array(*value, path);
        if (items == nullptr)
            return false;
        const std::size_t limit = limits_.max_choices_per_question;
        if (items->size() < 2)
            report_.error(path.str(), "needs at least 2 " + std::string(what) + "s, has " + std::to_string(items->size()));
        if (items->size() > limit)
            report_.error(path.str(), "too many " + std::string(what) + "s: " + std::to_string(items->size()) +
                                          " (the limit is " + std::to_string(limit) + ")");
        const std::string id_label = std::string(what) + " id";  // outlives `ids`, which keeps a view
        UniqueValues ids(report_, id_label, path);
        bool all_read = true;
        for (std::size_t i = 0; i < items->size() && i < limit && !report_.full(); ++i) {
            const JsonPath entry_path = path.index(i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, entry_path)) {
                all_read = false;
                continue;
            }
            read_.check_fields(item, entry_path, fields);
            Choice entry;
            if (const JsonValue* id = read_.required(item, entry_path, "id")) {
                entry.id = read_.slug(*id, entry_path.field("id"), example_id).value_or("");
                if (!entry.id.empty())
                    ids.add(*as_string(*id), i, entry_path.field("id"));
            }
            if (const JsonValue* text_value = read_.required(item, entry_path, "text"))
                entry.text = text(*text_value, entry_path.field("text"));
            each(item, entry_path, std::move(entry));
        }
        return all_read;
    }

    void read_matching(const JsonValue& value, const JsonPath& path, Question& question) {
        read_entries(value, path, "answers", answer_fields, "all-reduce", "answer",
                     [&](const JsonValue&, const JsonPath&, Choice answer) { question.choices.push_back(std::move(answer)); });
        std::vector<std::string> match_paths;  // strings: a JsonPath points at its parent's
        read_entries(value, path, "items", match_item_fields, "sync-gradients", "item",
                     [&](const JsonValue& item, const JsonPath& item_path, Choice entry) {
                         MatchItem match;
                         match.id = std::move(entry.id);
                         match.text = std::move(entry.text);
                         if (const JsonValue* answer = read_.required(item, item_path, "match"))
                             match.answer_id = read_.string(*answer, item_path.field("match")).value_or("");
                         if (const JsonValue* feedback = find_field(item, "feedback"))
                             match.feedback = text(*feedback, item_path.field("feedback"));
                         match_paths.push_back(item_path.field("match").str());
                         question.match_items.push_back(std::move(match));
                     });
        if (question.choices.empty())
            return;  // the answers could not be read: told already
        for (std::size_t i = 0; i < question.match_items.size() && i < match_paths.size(); ++i) {
            const MatchItem& item = question.match_items[i];
            if (!item.answer_id.empty() && question.find_choice(item.answer_id) == nullptr)
                report_.error(match_paths[i], in_quotes(item.answer_id) + " is not one of this question's answers");
        }
    }

    void read_tags(const JsonValue& value, const JsonPath& path, std::vector<std::string>& tags) {
        const auto* items = read_.array(value, path);
        if (items == nullptr)
            return;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const JsonPath tag_path = path.index(i);
            if (auto tag = read_.string((*items)[i], tag_path)) {
                if (is_blank_text(*tag))
                    report_.error(tag_path.str(), "tag is empty");
                else
                    tags.push_back(std::move(*tag));
            }
        }
    }

    // The choices of a choice question or of a cloze blank, at `path`. `exactly_one`: the type
    // that needs exactly one correct choice ("single_choice", "a blank"), or "" for at least one.
    void read_choices(const JsonValue& value, const JsonPath& path, const std::string& exactly_one,
                      std::vector<Choice>& choices) {
        const auto* items = read_.array(value, path);
        if (items == nullptr)
            return;
        const std::size_t limit = limits_.max_choices_per_question;
        if (items->size() < 2)
            report_.error(path.str(),
                          "needs at least 2 choices, has " + std::to_string(items->size()));
        if (items->size() > limit)
            report_.error(path.str(), "too many choices: " + std::to_string(items->size()) +
                                          " (the limit is " + std::to_string(limit) + ")");
        UniqueValues choice_ids(report_, "choice id", path);
        bool all_read = true;
        choices.reserve(std::min(items->size(), limit));
        for (std::size_t i = 0; i < items->size() && !report_.full(); ++i) {
            const JsonPath choice_path = path.index(i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, choice_path)) {
                all_read = false;
                continue;
            }
            read_.check_fields(item, choice_path, choice_fields);
            Choice choice;
            if (const JsonValue* id = read_.required(item, choice_path, "id")) {
                choice.id = read_.slug(*id, choice_path.field("id"), "full-replica").value_or("");
                if (!choice.id.empty())
                    choice_ids.add(*as_string(*id), i, choice_path.field("id"));
            }
            if (const JsonValue* text_value = read_.required(item, choice_path, "text"))
                choice.text = text(*text_value, choice_path.field("text"));
            if (const JsonValue* correct = find_field(item, "correct")) {
                auto flag = read_.boolean(*correct, choice_path.field("correct"));
                all_read = all_read && flag.has_value();
                choice.correct = flag.value_or(false);
            }
            if (const JsonValue* feedback = find_field(item, "feedback"))
                choice.feedback = text(*feedback, choice_path.field("feedback"));
            choices.push_back(std::move(choice));
        }
        if (!all_read || report_.full())
            return;   // counting correct choices would repeat the problems already reported
        const auto correct = std::count_if(choices.begin(), choices.end(),
                                           [](const Choice& choice) { return choice.correct; });
        if (!exactly_one.empty() && correct != 1)
            report_.error(path.str(), exactly_one + " needs exactly one correct choice, has " +
                                          std::to_string(correct));
        if (exactly_one.empty() && correct == 0)
            report_.error(path.str(), "multiple_choice needs at least one correct choice");
    }

    void read_numeric_answer(const JsonValue& value, const JsonPath& path, NumericAnswer& answer) {
        if (!read_.expect_object(value, path))
            return;
        read_.check_fields(value, path, numeric_answer_fields);
        const JsonValue* exact = find_field(value, "value");
        const JsonValue* tolerance = find_field(value, "tolerance");
        const JsonValue* min = find_field(value, "min");
        const JsonValue* max = find_field(value, "max");
        if (exact != nullptr && (min != nullptr || max != nullptr)) {
            report_.error(path.str(),
                          "use either \"value\" (with \"tolerance\") or \"min\" and \"max\", "
                          "not both");
            return;
        }
        if (exact != nullptr) {
            answer.form = NumericAnswer::Form::ValueWithTolerance;
            answer.value = read_.number(*exact, path.field("value")).value_or(0);
            if (tolerance != nullptr) {
                const JsonPath tolerance_path = path.field("tolerance");
                answer.tolerance = read_.number(*tolerance, tolerance_path).value_or(0);
                if (answer.tolerance < 0)
                    report_.error(tolerance_path.str(), "tolerance must not be negative");
            }
            return;
        }
        if (min == nullptr && max == nullptr) {
            report_.error(path.str(),
                          "numeric answer needs \"value\" (with an optional \"tolerance\") "
                          "or \"min\" and \"max\"");
            return;
        }
        if (tolerance != nullptr)
            report_.error(path.field("tolerance").str(),
                          "\"tolerance\" goes with \"value\", not with \"min\" and \"max\"");
        answer.form = NumericAnswer::Form::Range;
        std::optional<double> low;
        std::optional<double> high;
        if (read_.required(value, path, "min") != nullptr)
            low = read_.number(*min, path.field("min"));
        if (read_.required(value, path, "max") != nullptr)
            high = read_.number(*max, path.field("max"));
        answer.min = low.value_or(0);
        answer.max = high.value_or(0);
        if (low && high && *low > *high)
            report_.error(path.str(), "min (" + format_number(*low) +
                                          ") must not be greater than max (" +
                                          format_number(*high) + ")");
    }

    void read_accepted(const JsonValue& value, const JsonPath& path, std::vector<LocalizedText>& accepted) {
        const auto* items = read_.array(value, path);
        if (items == nullptr)
            return;
        if (items->empty())
            report_.error(path.str(), "accept needs at least one accepted answer");
        // Accepted answers are what a learner types, compared as typed: never Markdown.
        const bool markdown = markdown_;
        markdown_ = false;
        for (std::size_t i = 0; i < items->size() && !report_.full(); ++i)
            accepted.push_back(text((*items)[i], path.index(i)));
        markdown_ = markdown;
    }

    // A cloze question's blanks, and its prompt's `{{id}}`s: in every translation, each blank
    // exactly once and no other.
    void read_cloze(const JsonValue& value, const JsonPath& path, Question& question) {
        const JsonValue* blanks_value = read_.required(value, path, "blanks");
        if (blanks_value == nullptr)
            return;
        const JsonPath blanks_path = path.field("blanks");
        const auto* items = read_.array(*blanks_value, blanks_path);
        if (items == nullptr)
            return;
        const std::size_t limit = limits_.max_choices_per_question;
        if (items->empty())
            report_.error(blanks_path.str(), "needs at least 1 blank, has 0");
        if (items->size() > limit)
            report_.error(blanks_path.str(), "too many blanks: " + std::to_string(items->size()) +
                                                 " (the limit is " + std::to_string(limit) + ")");
        UniqueValues ids(report_, "blank id", blanks_path);
        bool all_read = true;
        for (std::size_t i = 0; i < items->size() && i < limit && !report_.full(); ++i) {
            const JsonPath blank_path = blanks_path.index(i);
            const JsonValue& item = (*items)[i];
            if (!read_.expect_object(item, blank_path)) {
                all_read = false;
                continue;
            }
            read_.check_fields(item, blank_path, blank_fields);
            Blank blank;
            if (const JsonValue* id = read_.required(item, blank_path, "id")) {
                blank.id = read_.slug(*id, blank_path.field("id"), "sync-op").value_or("");
                if (blank.id.empty())
                    all_read = false;
                else
                    ids.add(*as_string(*id), i, blank_path.field("id"));
            }
            const JsonValue* accept = find_field(item, "accept");
            const JsonValue* answer = find_field(item, "answer");
            const JsonValue* choices = find_field(item, "choices");
            const int kinds = (accept ? 1 : 0) + (answer ? 1 : 0) + (choices ? 1 : 0);
            if (kinds != 1)
                report_.error(blank_path.str(), kinds == 0 ? "a blank needs \"accept\" (typed), \"answer\" (a number) or \"choices\""
                                                           : "a blank has one of \"accept\", \"answer\" and \"choices\", not " +
                                                                 std::to_string(kinds));
            if (accept) {
                blank.kind = Blank::Kind::Typed;
                read_accepted(*accept, blank_path.field("accept"), blank.accepted_texts);
            } else if (answer) {
                blank.kind = Blank::Kind::Numeric;
                read_numeric_answer(*answer, blank_path.field("answer"), blank.numeric_answer);
            } else if (choices) {
                blank.kind = Blank::Kind::Options;
                read_choices(*choices, blank_path.field("choices"), "a blank", blank.options);
            }
            if (const JsonValue* unit = find_field(item, "unit")) {
                if (!answer)
                    report_.error(blank_path.field("unit").str(), "\"unit\" goes with a number's \"answer\"");
                blank.unit = text(*unit, blank_path.field("unit"));
            }
            if (const JsonValue* feedback = find_field(item, "feedback"))
                blank.feedback = text(*feedback, blank_path.field("feedback"));
            question.blanks.push_back(std::move(blank));
        }
        if (!all_read || report_.full() || question.prompt.empty())
            return;  // which blanks the prompt must show is unclear: told already
        const JsonPath prompt_path = path.field("prompt");
        if (question.prompt.is_plain())
            check_cloze_prompt(question, question.prompt.plain(), prompt_path);
        for (const auto& [language, text] : question.prompt.translations())
            check_cloze_prompt(question, text, prompt_path.field(language));
    }

    void check_cloze_prompt(const Question& question, const std::string& prompt, const JsonPath& path) {
        std::vector<std::size_t> seen(question.blanks.size(), 0);
        for (const ClozePiece& piece : split_cloze(prompt)) {
            if (piece.blank_id.empty())
                continue;
            const Blank* blank = question.find_blank(piece.blank_id);
            if (blank == nullptr)
                report_.error(path.str(), "{{" + piece.blank_id + "}} is not one of this question's blanks");
            else
                ++seen[static_cast<std::size_t>(blank - question.blanks.data())];
        }
        for (std::size_t i = 0; i < seen.size(); ++i) {
            if (seen[i] == 0)
                report_.error(path.str(), "the blank " + in_quotes(question.blanks[i].id) + " is not in this text (write {{" +
                                              question.blanks[i].id + "}} where it goes)");
            else if (seen[i] > 1)
                report_.error(path.str(), "the blank " + in_quotes(question.blanks[i].id) + " is in this text " +
                                              std::to_string(seen[i]) + " times (once only)");
        }
    }

    DiagnosticCollector& report_;
    const LoadLimits& limits_;
    FieldReader read_;
    bool exam_ = false;          // settings.mode is "exam" (read before the questions)
    const std::vector<std::string>* languages_ = nullptr;
    bool markdown_ = false;  // "textFormat": "markdown": every text is checked as Markdown
    std::vector<Formula> formulas_;  // what check_markdown found, for BankLoadResult
    std::vector<ImageReference>* images_ = nullptr;  // the bank's, filled by check_markdown
    std::set<std::string> images_seen_;
    std::vector<char> languages_present_;   // text(): kept between calls, so not reallocated
    const JsonPath questions_path_{"questions"};
    UniqueValues question_ids_{report_, "question id", questions_path_};
};

bool is_safe_relative_json_path(std::string_view file) {
    if (file.empty() || file.front() == '/' || file.find('\\') != std::string_view::npos ||
        file.find(':') != std::string_view::npos)
        return false;
    if (file.size() < 6 || file.substr(file.size() - 5) != ".json")
        return false;
    std::size_t start = 0;
    while (start <= file.size()) {
        const std::size_t end = std::min(file.find('/', start), file.size());
        const std::string_view segment = file.substr(start, end - start);
        if (segment.empty() || segment == "." || segment == "..")
            return false;
        start = end + 1;
    }
    return true;
}

// A path a catalog entry names (its bank, its formulas): a string, relative, inside the
// catalog's folder, ending in .json. The page and quizc resolve it against the catalog's URL, so
// anything else could reach outside the site.
std::optional<std::string> read_catalog_path(FieldReader& read, DiagnosticCollector& report,
                                             const JsonValue& value, const JsonPath& path,
                                             std::string_view field, std::string_view example) {
    auto name = read.string(value, path);
    if (!name)
        return std::nullopt;
    if (!is_safe_relative_json_path(*name)) {
        report.error(path.str(), std::string(field) +
                                     " must be a relative path to a .json file inside the "
                                     "catalog's folder, like \"" +
                                     std::string(example) + "\", got " + in_quotes(*name));
        return std::nullopt;
    }
    return name;
}

std::optional<Catalog> validate_catalog(const JsonValue& root, DiagnosticCollector& report) {
    FieldReader read(report);
    if (!check_header(root, read, report, catalog_format, catalog_format_version, "catalog"))
        return std::nullopt;
    read.check_fields(root, "", catalog_fields);
    if (const JsonValue* notes = find_field(root, "notes"))
        read.string(*notes, "notes");
    Catalog catalog;
    const JsonValue* banks = read.required(root, "", "banks");
    const auto* items = banks == nullptr ? nullptr : read.array(*banks, "banks");
    if (items != nullptr && items->empty())
        report.error("banks", "a catalog needs at least one bank");
    const JsonPath banks_path("banks");
    UniqueValues bank_ids(report, "bank id", banks_path);
    UniqueValues files(report, "file", banks_path);
    for (std::size_t i = 0; items != nullptr && i < items->size() && !report.full(); ++i) {
        const JsonPath path = banks_path.index(i);
        const JsonValue& item = (*items)[i];
        if (!read.expect_object(item, path))
            continue;
        read.check_fields(item, path, catalog_entry_fields);
        CatalogEntry entry;
        if (const JsonValue* id = read.required(item, path, "id")) {
            entry.id = read.slug(*id, path.field("id"), "data-parallelism").value_or("");
            if (!entry.id.empty())
                bank_ids.add(*as_string(*id), i, path.field("id"));
        }
        if (const JsonValue* file = read.required(item, path, "file")) {
            const JsonPath file_path = path.field("file");
            if (auto name = read_catalog_path(read, report, *file, file_path, "file",
                                              "data-parallelism.json")) {
                entry.file = *name;
                files.add(*as_string(*file), i, file_path);
            }
        }
        // The bank's formulas typeset ahead of time (scripts/check-math.mjs --write): read by the
        // page (web/rich.js), which then need not load MathJax; the engine only checks the path.
        if (const JsonValue* formulas = find_field(item, "formulas")) {
            if (auto name = read_catalog_path(read, report, *formulas, path.field("formulas"),
                                              "formulas", "data-parallelism.formulas.json"))
                entry.formulas = *name;
        }
        catalog.banks.push_back(std::move(entry));
    }
    if (report.any_error())
        return std::nullopt;
    return catalog;
}

// The top-level "format" string, read without building the document, and stopping there (or at
// once when the document is not an object, or breaks the nesting or value limits): quizc asks
// before loading every file, and a second full parse of a large file would double its cost.
// Malformed text after that point is the loader's to report.
class FormatFinder {
public:
    explicit FormatFinder(const LoadLimits& limits) : limits_(limits) {}

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(Json::number_integer_t) { return value(); }
    bool number_unsigned(Json::number_unsigned_t) { return value(); }
    bool number_float(Json::number_float_t, const Json::string_t&) { return value(); }
    bool string(Json::string_t& text) {
        if (at_format_) {
            format_ = text;
            return false;   // found: no need to read further
        }
        return value();
    }
    bool binary(Json::binary_t&) { return false; }
    bool start_object(std::size_t) { return open(); }
    bool start_array(std::size_t) { return depth_ > 0 && open(); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(Json::string_t& name) {
        // The first "format" counts, as in the loaded document (a repeated key is ignored).
        at_format_ = depth_ == 1 && !format_seen_ && name == "format";
        format_seen_ = format_seen_ || at_format_;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;
    }

    const std::optional<std::string>& format() const { return format_; }

private:
    bool value() {
        at_format_ = false;
        return depth_ > 0 && ++values_ <= limits_.max_values;
    }
    bool open() {
        at_format_ = false;
        return ++depth_ <= limits_.max_nesting_depth && ++values_ <= limits_.max_values;
    }
    bool close() {
        --depth_;
        return true;
    }

    const LoadLimits& limits_;
    std::size_t depth_ = 0;
    std::size_t values_ = 0;
    bool at_format_ = false;
    bool format_seen_ = false;
    std::optional<std::string> format_;
};

// Reads `json_text`, passing its diagnostics through `report`; nothing when there is no
// document. With `array_limit`, a document over it is refused as soon as the reader gets there.
std::optional<JsonDocument> read_document(std::string_view json_text, DiagnosticCollector& report,
                                          const LoadLimits& limits,
                                          const JsonArrayLimit* array_limit = nullptr) {
    JsonReadResult parsed = read_json(json_text, report.file(), limits, array_limit);
    for (Diagnostic& diagnostic : parsed.diagnostics)
        report.add(std::move(diagnostic));
    // The reader stopped at the first element over the limit: how many there are is unknown.
    if (parsed.array_limit_reached)
        report.error(std::string(array_limit->field),
                     "more than " + std::to_string(array_limit->max_elements) + " " +
                         std::string(array_limit->field) + " (the limit is " +
                         std::to_string(array_limit->max_elements) + ")");
    return std::move(parsed.document);
}

} // namespace

BankLoadResult load_bank(std::string_view json_text, std::string_view file_name,
                         const LoadLimits& limits) {
    BankLoadResult result;
    DiagnosticCollector report(file_name, limits.max_diagnostics, result.diagnostics);
    // A file with too many questions is refused without reading (and holding) the rest of it.
    const JsonArrayLimit question_limit{"questions", limits.max_questions};
    if (auto document = read_document(json_text, report, limits, &question_limit)) {
        BankValidator validator(report, limits);
        result.bank = validator.validate(document->root());
        result.formulas = validator.take_formulas();
    }
    return result;
}

CatalogLoadResult load_catalog(std::string_view json_text, std::string_view file_name,
                               const LoadLimits& limits) {
    CatalogLoadResult result;
    DiagnosticCollector report(file_name, limits.max_diagnostics, result.diagnostics);
    if (auto document = read_document(json_text, report, limits))
        result.catalog = validate_catalog(document->root(), report);
    return result;
}

DocumentKind detect_document_kind(std::string_view json_text, const LoadLimits& limits) {
    if (json_text.size() > limits.max_file_bytes)
        return DocumentKind::Unknown;
    FormatFinder finder(limits);
    Json::sax_parse(json_text.begin(), json_text.end(), &finder);
    const std::optional<std::string>& name = finder.format();
    if (name && *name == bank_format)
        return DocumentKind::Bank;
    if (name && *name == catalog_format)
        return DocumentKind::Catalog;
    return DocumentKind::Unknown;
}

std::vector<Diagnostic> validate_document(std::string_view json_text, std::string_view file_name,
                                          const LoadLimits& limits) {
    if (detect_document_kind(json_text, limits) == DocumentKind::Catalog)
        return load_catalog(json_text, file_name, limits).diagnostics;
    return load_bank(json_text, file_name, limits).diagnostics;
}

} // namespace imquiz
