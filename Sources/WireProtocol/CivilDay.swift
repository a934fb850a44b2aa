/// Day numbers in the proleptic Gregorian calendar, counted from 1970-01-01, by plain
/// arithmetic: no `Calendar`, whose zones other than UTC need ICU, which umctl does not load.
public enum CivilDay {
    /// Days since 1970-01-01 of a date (days from civil); negative before it.
    public static func number(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` (1…12) of `year` has.
    public static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
