// Calendar dates from Unix milliseconds (UTC), without a time-zone database: for the xAPI
// timestamps sent to the host page and the dates of past attempts.
#pragma once

#include <cstdint>
#include <string>

namespace imquiz::app {

struct CivilTime {
    int year, month, day, hour, minute, second, millisecond;
};

// Howard Hinnant's days-from-civil inverse; valid for any date after year 0.
inline CivilTime civil_time(std::int64_t unix_ms) {
    std::int64_t seconds = unix_ms / 1000;
    std::int64_t days = seconds / 86400 + 719468, rest = seconds % 86400;
    std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    std::int64_t day_of_era = days - era * 146097;
    std::int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    std::int64_t month_index = (5 * day_of_year + 2) / 153;
    int day = static_cast<int>(day_of_year - (153 * month_index + 2) / 5 + 1);
    int month = static_cast<int>(month_index < 10 ? month_index + 3 : month_index - 9);
    int year = static_cast<int>(year_of_era + era * 400 + (month <= 2));
    return {year, month, day, static_cast<int>(rest / 3600), static_cast<int>(rest % 3600 / 60),
            static_cast<int>(rest % 60), static_cast<int>(unix_ms % 1000)};
}

}  // namespace imquiz::app
