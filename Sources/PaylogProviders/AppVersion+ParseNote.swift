import PaylogDomain

extension AppVersion {
    /// A note when a declared app version is present but not dotted numbers.
    static func notes(forDeclared text: String?) -> [ParseNote] {
        guard let text, AppVersion(text) == nil else { return [] }
        return [.unreadableAppVersion(text)]
    }
}
