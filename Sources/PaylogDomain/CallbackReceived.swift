/// `CallbackReceived`: a callback URL came back from the provider's app (or, for Square web apps, its HTTP GET).
///
/// Recorded for every callback observed, including late ones, ones that contradict an earlier callback, and the same
/// callback delivered again (``isRedelivery``): each is evidence. The same observation sent twice (the same URL
/// observed at the same moment) is recognised by its event id and recorded once.
public struct CallbackReceived: Sendable, Hashable, Codable {
    /// The callback URL exactly as received: the evidence.
    public var callbackURL: String
    /// The normalized reading of the callback at the time it was recorded.
    public var outcome: CallbackOutcome
    /// True when the payment already had a different callback recorded.
    public var isRepeat: Bool
    /// True when the payment had already failed (e.g. our timeout) when this callback arrived: a late callback.
    public var isLate: Bool
    /// True when this callback contradicts an earlier one (success after failure or the reverse).
    public var contradictsEarlier: Bool
    /// True when this callback echoes the reference of an earlier request of the payment, one a retry has replaced:
    /// it answers that attempt, so it neither fails nor contradicts the attempt in progress. Events recorded before
    /// this field existed read false.
    public var answersEarlierAttempt: Bool
    /// True when this callback is byte for byte one the payment recorded before, delivered again at another moment:
    /// kept as evidence of the delivery (a shop may have acted on it twice), it changes nothing else of the payment.
    public var isRedelivery: Bool

    /// A `CallbackReceived` event.
    public init(
        callbackURL: String, outcome: CallbackOutcome, isRepeat: Bool, isLate: Bool, contradictsEarlier: Bool,
        answersEarlierAttempt: Bool = false, isRedelivery: Bool = false
    ) {
        self.callbackURL = callbackURL
        self.outcome = outcome
        self.isRepeat = isRepeat
        self.isLate = isLate
        self.contradictsEarlier = contradictsEarlier
        self.answersEarlierAttempt = answersEarlierAttempt
        self.isRedelivery = isRedelivery
    }
}
