import PaylogDomain

extension LaunchSpec {
    /// Checks the rules every provider shares: right adapter, positive amount, credential present,
    /// non-empty reference, readable app version, and no field the provider lacks.
    func validateCommon(for adapter: Provider) throws(ProviderError) {
        guard provider == adapter else { throw .wrongAdapter(spec: provider, adapter: adapter) }
        guard amount.minorUnits > 0 else { throw .nonPositiveAmount(amount) }
        if let reference, reference.isEmpty {
            throw .invalidReference(field: referenceFieldName, value: reference, reason: "it is empty")
        }
        if let appVersion, AppVersion(appVersion) == nil { throw .invalidAppVersion(appVersion) }

        let squareOnly: [(String, Bool)] = [
            ("notes", notes != nil), ("options.supported_tender_types", tenderTypes != nil),
            ("options.auto_return", autoReturn != nil), ("options.skip_receipt", skipReceipt != nil),
            ("options.clear_default_fees", clearDefaultFees != nil), ("location_id", locationID != nil),
            ("merchant_id", merchantID != nil), ("customer_id", customerID != nil),
        ]
        let sumUpOnly: [(String, Bool)] = [
            ("skip-screen-success", skipScreenSuccess), ("receipt-email", receiptEmail != nil),
            ("receipt-mobilephone", receiptMobilePhone != nil),
        ]
        var foreign: [(String, Bool)] = []
        switch provider {
        case .square: foreign = sumUpOnly + [("title", title != nil)]
        case .sumup: foreign = squareOnly
        case .izettle: foreign = squareOnly + sumUpOnly
        }
        if let (field, _) = foreign.first(where: { $0.1 }) { throw .unsupportedField(field, provider: provider) }
    }

    /// The wire name of the reference field for this spec's provider.
    var referenceFieldName: String {
        switch provider {
        case .square: return "state"
        case .sumup: return "foreign-tx-id"
        case .izettle: return "reference"
        }
    }

    /// Refuses `field` when the declared app version is below `minimum`.
    func requireApp(_ minimum: String, for field: String) throws(ProviderError) {
        guard let appVersion, let declared = AppVersion(appVersion), let required = AppVersion(minimum) else { return }
        if declared < required { throw .requiresNewerApp(field: field, minimum: minimum, declared: appVersion) }
    }
}
