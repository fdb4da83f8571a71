use crate::contract::json_schemas;
use std::path::Path;

#[test]
fn committed_schemas_match_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let bless = std::env::var_os("PATCHGATE_BLESS").is_some_and(|v| v == "1");
    for (name, generated) in json_schemas() {
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, &generated).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "schemas/{name} differs from the Rust types; run PATCHGATE_BLESS=1 cargo test --lib contract::tests::schema"
        );
    }
}
