public import Defaults
public import Bundles
public import Foundation

/// The app's settings in its defaults domain (`com.bignerdranch.Homepwner`), readable and
/// writable with the `defaults` tool, and the localized text of every screen.
///
/// Keys: `HomepwnerCurrencyCode` (ISO 4217, default `USD`), `HomepwnerSortOrder` (`manual`,
/// `name`, `value`; default `manual`), `HomepwnerDefaultValue` (dollars for new items, default 0);
/// `AppleLanguages` picks the language as on Apple platforms.
public struct Preferences {
  public static let currencyKey = "HomepwnerCurrencyCode"
  public static let sortOrderKey = "HomepwnerSortOrder"
  public static let defaultValueKey = "HomepwnerDefaultValue"

  public let defaults: Defaults.UserDefaults
  public let bundle: Bundles.Bundle

  public init(defaults: Defaults.UserDefaults, bundle: Bundles.Bundle) {
    self.defaults = defaults
    self.bundle = bundle
    defaults.register(defaults: [Self.currencyKey: "USD", Self.sortOrderKey: "manual", Self.defaultValueKey: 0])
  }

  public var currencyCode: String { defaults.string(forKey: Self.currencyKey) ?? "USD" }
  public var sortOrder: String { defaults.string(forKey: Self.sortOrderKey) ?? "manual" }
  public var defaultValue: Int { defaults.integer(forKey: Self.defaultValueKey) }

  /// The localization the screens are in: the first of the bundle's localization search list,
  /// which the bundle keeps (with its string tables) until ``applyLanguageChange()`` — so labels,
  /// numbers and dates always follow one and the same choice, never half of a new one.
  public var language: String { bundle.localizationSearchList.first ?? "en" }

  /// Takes a changed `AppleLanguages` whole (the app calls it when it comes back to the
  /// foreground): when the user's languages now choose another localization than the one in
  /// use, the bundle forgets its choice and string tables, and every label, number and date
  /// changes together at the next draw. Returns whether the language changed.
  @discardableResult
  public func applyLanguageChange() -> Bool {
    guard let chosen = bundle.preferredLocalizations.first, chosen != language else { return false }
    bundle.invalidateResourceCache()
    return true
  }

  /// `NSLocalizedString(key)` from the app's bundle.
  public func text(_ key: String) -> String { bundle.localizedString(forKey: key, value: nil, table: nil) }

  /// A localized string with `%@` filled.
  public func text(_ key: String, _ argument: String) -> String {
    (try? bundle.localizedString(forKey: key, arguments: [.string(argument)])) ?? key
  }

  /// "3 items", "1 Gegenstand", "3 個の持ち物" (`Localizable.stringsdict`).
  public func itemCount(_ count: Int) -> String {
    (try? bundle.localizedString(forKey: "ItemCount", arguments: [.int(Int64(count))])) ?? "\(count)"
  }

  /// Dollars in the chosen currency, formatted for the language ("$42.00", "42,00 €", "￥42").
  public func money(_ value: Int) -> String {
    Decimal(value).formatted(.currency(code: currencyCode).locale(Locale(identifier: language)))
  }

  /// A whole number as the language writes it ("1,234", "1.234").
  public func number(_ value: Int) -> String { value.formatted(.number.locale(Locale(identifier: language))) }

  /// A date in the language's medium style.
  public func date(_ date: Date) -> String {
    date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(Locale(identifier: language)))
  }

  /// A date in the language's full style, with the weekday ("Thursday, November 26, 2026").
  public func fullDate(_ date: Date) -> String {
    date.formatted(Date.FormatStyle(date: .complete, time: .omitted).locale(Locale(identifier: language)))
  }

  /// The year, the month and the day of a date, each as the language writes it alone ("2026",
  /// "November", "26"; "2026年", "11月", "26日").
  public func dateComponents(_ date: Date) -> [String] {
    let locale = Locale(identifier: language)
    return [
      date.formatted(Date.FormatStyle().year().locale(locale)), date.formatted(Date.FormatStyle().month(.wide).locale(locale)),
      date.formatted(Date.FormatStyle().day().locale(locale)),
    ]
  }
}
