import Foundation
import PaylogStore

/// Small builders shared by the store tests.
enum StoreFixtures {
    static func event(_ type: String = "Tick", _ text: String = "payload", id: UUID = UUID()) -> NewEvent {
        NewEvent(id: id, type: type, payload: Data(text.utf8), observedAt: Timestamp(microseconds: 1_700_000_000_000_000),
                 correlationID: "corr", causationID: "cause", actor: "test")
    }


}
