//! What to do about each rejected pattern: the second half of every argument message, written
//! for the agent that sent the value.

use super::RejectedPattern;

/// One lowercase instruction for the agent.
pub(super) fn hint(pattern: RejectedPattern) -> &'static str {
    use RejectedPattern as P;
    match pattern {
        P::EmptyValue => "pass a non-empty value",
        P::NulByte | P::ControlCharacter => {
            "remove the control character; pass the value as plain text"
        }
        P::PathTraversal | P::BackslashTraversal => {
            "name the target directly, without '..' segments; use a discovery tool to find it"
        }
        P::PercentEncodedSeparator
        | P::PercentEncodedSegment
        | P::DoubleEncoding
        | P::OverlongUtf8
        | P::EncodedShellMetacharacter => {
            "pass the plain value exactly as the tool gave it, not a URL-encoded one"
        }
        P::QueryParameter => {
            "pass the bare value; options are separate arguments, not a query string"
        }
        P::Fragment => "pass the bare value without a '#fragment'",
        P::FullwidthSeparator => "use plain ASCII dots and slashes",
        P::Whitespace => "pass one token; ids and names contain no whitespace",
        P::PathSeparator => "pass the id or name itself, not a path",
        P::AbsolutePath => "give it relative to the repository root",
        P::HomeDir => "give it relative to the repository root; '~' is not expanded here",
        P::GitDir => "an agent may never touch the git directory",
        P::OutsideAllowedDirs => "only paths inside the allowed directories may be used",
        P::InvalidTicketId => "pass a ticket id of one of the configured forms",
        P::TicketKindMismatch => "pass an id of the expected kind",
        P::BranchShape => "name the branch in one of the configured shapes",
        P::GitRefForbiddenCharacter
        | P::GitRefAtBrace
        | P::GitRefReservedName
        | P::GitRefLeadingDash
        | P::GitRefSlash
        | P::GitRefTrailingDot
        | P::GitRefDotComponent
        | P::GitRefLockSuffix => {
            "git refuses this ref name (see git check-ref-format); rename the branch"
        }
        P::UnknownAgent => "name a registered agent",
        P::UnknownOperation => "pass one of the agent's operations",
        P::LimitExceeded => {
            "split the input, or raise the named [limits] setting if it is intended"
        }
    }
}
