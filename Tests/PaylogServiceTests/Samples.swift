/// Request bodies the service tests send.
enum Samples {
    /// A build-mode Square request for `payment`, with its callback pointing at the service's web callback.
    static func squareBuild(_ payment: String, amount: String = "12.50") -> String {
        """
        {"payment":"\(payment)","provider":"square","amount":"\(amount)","currency":"USD",\
        "callback_url":"https://pos.example.test/v1/callbacks/square","client_id":"sq0idp-test"}
        """
    }

    /// An observed SumUp launch URL with a receipt e-mail (personal data).
    static func sumupLaunch(_ reference: String) -> String {
        "sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=\(reference)&receipt-email=jane%40example.com&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
    }

    /// A SumUp success callback for `reference`, carrying the receipt e-mail back.
    static func sumupCallback(_ reference: String) -> String {
        "myshop://ok?smp-status=success&smp-tx-code=TX\(reference)&foreign-tx-id=\(reference)&receipt-email=jane%40example.com"
    }
}
