import Defaults

/// Stasis's `UserDefaults` in this module, which imports Foundation too (Docs/architecture.md,
/// decision 6: one alias per shared name, once per module).
typealias UserDefaults = Defaults.UserDefaults
