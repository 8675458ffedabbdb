/// A fact noticed while reading a provider URL that the typed fields alone do not show.
///
/// Notes never make a parse fail; they tell a later compatibility checker how the input deviated
/// from the clean form so it can judge it.
public enum ParseNote: Sendable, Hashable, Codable {
    /// The URL contained characters that are not allowed unescaped (space, `{`, `"`, a stray `%`, …);
    /// it was read after escaping them.
    case lenientURLParsing
    /// Square's `amount_money.amount` was a JSON string (the doc's JS sample sends `"500"`), not a number.
    case amountSentAsString
    /// Square's `amount_money.amount` was a whole number written with a fraction or an exponent (this text, say
    /// `500.0`), not as the integer the contract specifies; it was read as that integer.
    case amountNotIntegerLiteral(String)
    /// Square's `version` was a JSON number (this text), not the string the contract specifies.
    case versionNotString(String)
    /// Square's `data` value contained unescaped `&` (or the callback URL had its own query), so it was
    /// taken as everything after `data=` rather than as one query item.
    case dataRecoveredFromRawQuery
    /// A query item's value (or name) was not valid percent-encoded UTF-8; it is kept percent-encoded.
    case undecodablePercentEncoding(String)
    /// A query item occurred more than once; the first occurrence is used.
    case duplicateQueryItem(String)
    /// The host and path differ from the documented launch endpoint; they are given as observed.
    case unexpectedEndpoint(String)
    /// An error parameter and our own `paylog_outcome` marker disagree; the error parameter wins.
    case conflictingOutcome
    /// A SumUp callback's `smp-status` (`status`) says the opposite of the URL it was opened on (`opened`: our
    /// `paylog_outcome` marker, or the request's `callbacksuccess` / `callbackfail` URL); the status is used.
    case statusContradictsOpenedURL(status: String, opened: String)
    /// A `paylog_payment` item was present but is not a valid payment id; it is not used for routing.
    case invalidRoutingPaymentID(String)
    /// The declared app version could not be read as dotted numbers.
    case unreadableAppVersion(String)
    /// A member of Square's `data` JSON (this dotted path) was `null`; it is read as absent.
    case jsonNull(String)
    /// A key occurred more than once in one object of Square's `data` JSON (this dotted path); the first value
    /// (`read`, as JSON text) is used, while a reader keeping the last would see `other`.
    case duplicateJSONKey(String, read: String, other: String)
    /// Square's `state` was not a JSON string but this JSON text, kept as written (its inside is not read as keys).
    case stateNotString(String)
    /// A Square option the contract types as a boolean (this dotted path) held this JSON text instead.
    case optionNotBoolean(String, text: String)
    /// Square's `options.supported_tender_types`, which the contract types as an array of strings, held this JSON text
    /// instead (read as a list of that one value).
    case tenderTypesNotArray(String)
}
