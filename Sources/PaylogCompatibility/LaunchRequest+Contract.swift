import PaylogDomain
import PaylogProviders

extension LaunchRequest {
    /// The declared provider app version, when it is present and readable.
    var declaredAppVersion: AppVersion? { appVersion.flatMap(AppVersion.init) }

    /// The value of query item `key` as the app receives it (bytes when it is not UTF-8 text); nil when absent.
    func receivedValue(_ key: String) -> ReceivedValue? {
        fields[key].map { ReceivedValue($0, keptEncoded: parseNotes.contains(.undecodablePercentEncoding(key))) }
    }

    /// The SumUp-style version gate: a message when `field` needs app `minimum` and the declared app is older,
    /// `nil` when it is new enough or unknown (the unknown case has its own info rule).
    func sumUpAppBelow(_ minimum: String, field: String, what: String) -> String? {
        guard let declared = declaredAppVersion, let required = AppVersion(minimum), declared < required else {
            return nil
        }
        return "SumUp request carries \(field)\(what), which the SumUp app supports only from \(minimum); "
            + "the declared app is \(declared)."
    }
}
