#include "engine/bank_writer.h"

#include "engine/json/reader.h"

#include <algorithm>

namespace imquiz {
namespace {

// A plain text stays a string; a translated one lists the bank's languages first, in the
// author's order, then any other (alphabetically, as LocalizedText keeps them).
Json text_json(const LocalizedText& text, const std::vector<std::string>& languages) {
    if (text.is_plain())
        return text.plain();
    Json object = Json::object();
    const auto& translations = text.translations();
    for (const std::string& language : languages)
        if (auto found = translations.find(language); found != translations.end())
            object[language] = found->second;
    for (const auto& [language, translation] : translations)
        if (std::find(languages.begin(), languages.end(), language) == languages.end())
            object[language] = translation;
    return object;
}

Json numeric_answer_json(const NumericAnswer& answer) {
    Json object = Json::object();
    if (answer.form == NumericAnswer::Form::Range) {
        object["min"] = answer.min;
        object["max"] = answer.max;
    } else {
        object["value"] = answer.value;
        if (answer.tolerance != 0)
            object["tolerance"] = answer.tolerance;
    }
    return object;
}

Json choices_json(const std::vector<Choice>& choices, const std::vector<std::string>& languages) {
    Json array = Json::array();
    for (const Choice& choice : choices) {
        Json item = Json::object();
        item["id"] = choice.id;
        item["text"] = text_json(choice.text, languages);
        if (choice.correct)
            item["correct"] = true;
        if (!choice.feedback.empty())
            item["feedback"] = text_json(choice.feedback, languages);
        array.push_back(std::move(item));
    }
    return array;
}

Json accepted_json(const std::vector<LocalizedText>& texts, const std::vector<std::string>& languages) {
    Json array = Json::array();
    for (const LocalizedText& text : texts)
        array.push_back(text_json(text, languages));
    return array;
}

Json question_json(const Question& question, const std::vector<std::string>& languages) {
    Json object = Json::object();
    object["id"] = question.id;
    object["type"] = std::string(to_string(question.type));
    if (!question.tags.empty())
        object["tags"] = question.tags;
    object["prompt"] = text_json(question.prompt, languages);
    switch (question.type) {
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: object["choices"] = choices_json(question.choices, languages); break;
    case QuestionType::TrueFalse: object["answer"] = question.true_false_answer; break;
    case QuestionType::Numeric:
        object["answer"] = numeric_answer_json(question.numeric_answer);
        if (!question.unit.empty())
            object["unit"] = text_json(question.unit, languages);
        break;
    case QuestionType::ShortText: object["accept"] = accepted_json(question.accepted_texts, languages); break;
    case QuestionType::Cloze: {
        Json blanks = Json::array();
        for (const Blank& blank : question.blanks) {
            Json item = Json{{"id", blank.id}};
            switch (blank.kind) {
            case Blank::Kind::Typed: item["accept"] = accepted_json(blank.accepted_texts, languages); break;
            case Blank::Kind::Numeric:
                item["answer"] = numeric_answer_json(blank.numeric_answer);
                if (!blank.unit.empty())
                    item["unit"] = text_json(blank.unit, languages);
                break;
            case Blank::Kind::Options: item["choices"] = choices_json(blank.options, languages); break;
            }
            if (!blank.feedback.empty())
                item["feedback"] = text_json(blank.feedback, languages);
            blanks.push_back(std::move(item));
        }
        object["blanks"] = std::move(blanks);
        break;
    }
    case QuestionType::Matching:
    case QuestionType::Ordering: {
        auto entries = [&](const std::vector<Choice>& list) {
            Json array = Json::array();
            for (const Choice& entry : list)
                array.push_back(Json{{"id", entry.id}, {"text", text_json(entry.text, languages)}});
            return array;
        };
        if (question.type == QuestionType::Ordering) {
            object["items"] = entries(question.choices);
            break;
        }
        Json items = Json::array();
        for (const MatchItem& entry : question.match_items) {
            Json item = Json{{"id", entry.id}, {"text", text_json(entry.text, languages)}, {"match", entry.answer_id}};
            if (!entry.feedback.empty())
                item["feedback"] = text_json(entry.feedback, languages);
            items.push_back(std::move(item));
        }
        object["items"] = std::move(items);
        object["answers"] = entries(question.choices);
        break;
    }
    }
    if (!question.explanation.empty())
        object["explanation"] = text_json(question.explanation, languages);
    if (!question.hints.empty()) {
        Json hints = Json::array();
        for (const Hint& hint : question.hints) {
            Json entry = Json{{"text", text_json(hint.text, languages)}};
            if (hint.cost > 0) entry["cost"] = hint.cost;
            hints.push_back(std::move(entry));
        }
        object["hints"] = std::move(hints);
    }
    if (question.max_tries) object["maxTries"] = *question.max_tries;
    if (question.try_penalty) object["tryPenalty"] = *question.try_penalty;
    return object;
}

Json settings_json(const Settings& settings) {
    const Settings defaults;
    Json object = Json::object();
    if (settings.shuffle_choices != defaults.shuffle_choices)
        object["shuffleChoices"] = settings.shuffle_choices;
    if (settings.shuffle_questions != defaults.shuffle_questions)
        object["shuffleQuestions"] = settings.shuffle_questions;
    if (settings.pool_size != defaults.pool_size)
        object["poolSize"] = settings.pool_size;
    if (settings.pass_percent != defaults.pass_percent)
        object["passPercent"] = settings.pass_percent;
    if (settings.partial_credit != defaults.partial_credit)
        object["partialCredit"] = settings.partial_credit;
    if (settings.max_tries != defaults.max_tries)
        object["maxTries"] = settings.max_tries;
    if (settings.try_penalty != defaults.try_penalty)
        object["tryPenalty"] = settings.try_penalty;
    if (settings.mode == Settings::Mode::Exam)
        object["mode"] = "exam";
    if (!settings.review_after_submit)
        object["showAfterSubmit"] = "score";
    if (settings.time_limit_minutes > 0)
        object["timeLimitMinutes"] = settings.time_limit_minutes;
    if (settings.max_attempts)
        object["maxAttempts"] = *settings.max_attempts;
    return object;
}

} // namespace

std::string bank_to_json(const Bank& bank) {
    Json root = Json::object();
    root["format"] = "imquiz-bank";
    root["version"] = 1;
    root["id"] = bank.id;
    if (bank.text_format == TextFormat::Markdown)
        root["textFormat"] = "markdown";
    root["title"] = text_json(bank.title, bank.languages);
    if (!bank.description.empty())
        root["description"] = text_json(bank.description, bank.languages);
    root["languages"] = bank.languages;
    root["defaultLanguage"] = bank.default_language;
    if (!bank.notes.empty())
        root["notes"] = bank.notes;
    Json settings = settings_json(bank.settings);
    if (!settings.empty())
        root["settings"] = std::move(settings);
    Json questions = Json::array();
    for (const Question& question : bank.questions)
        questions.push_back(question_json(question, bank.languages));
    root["questions"] = std::move(questions);
    if (!bank.feedback_ranges.empty()) {
        Json ranges = Json::array();
        for (const ScoreRange& range : bank.feedback_ranges)
            ranges.push_back(Json{{"from", range.from}, {"to", range.to}, {"text", text_json(range.text, bank.languages)}});
        root["feedbackRanges"] = std::move(ranges);
    }
    // The replacing error handler: nlohmann's default would throw (abort here) on invalid UTF-8.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace imquiz
