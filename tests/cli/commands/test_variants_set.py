"""`flagtui feature variants set`: a flag's environment variants replaced with the weights
Unleash stores; a flag without any is not supported (Unleash deprecated them: exit 5); weights
that do not add up are refused before sending."""

from __future__ import annotations

from .rollout_helpers import refused_before_sending


def a_flag_with_environment_variants(server) -> tuple[str, str]:
    for flag in server.get("/api/admin/projects/payments/features").json()["features"]:
        for env in flag["environments"]:
            if env.get("variantCount"):
                return flag["name"], env["name"]
    raise AssertionError("the demo has a payments flag with environment variants")


def test_replaced_with_the_weights_unleash_stores(run, server):
    flag, env = a_flag_with_environment_variants(server)
    result = run(
        "feature", "variants", "set", "payments", flag, env, "--yes",
        "--variant", "on=12.5%", "--variant", "off", "--stickiness", "userId",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert result.json["done"] == "feature-environment-variants-updated"
    url = f"/api/admin/projects/payments/features/{flag}/environments/{env}/variants"
    stored = server.get(url).json()["variants"]
    assert [(v["name"], v["weight"], v["stickiness"]) for v in stored] == [
        ("off", 875, "userId"),
        ("on", 125, "userId"),
    ]


def test_a_flag_without_environment_variants_is_not_supported(run):
    result = run(
        "feature",
        "variants",
        "set",
        "default",
        "admin-async-emails",
        "development",
        "--variant",
        "a",
    )
    assert result.code == 5
    assert "need a flag that has some already" in result.error["message"]


def test_weights_that_do_not_add_up_are_refused(run, server):
    flag, env = a_flag_with_environment_variants(server)
    argv = ("feature", "variants", "set", "payments", flag, env, "--yes")
    said = refused_before_sending(run, server, *argv, "--variant", "a=60%", "--variant", "b=30%")
    assert said.startswith("variants.weight: the weights add up to 900, not 1000")
    said = refused_before_sending(run, server, *argv, "--variant", "a", "--stickiness", " ")
    assert said.startswith("variants[0].stickiness")
    said = refused_before_sending(run, server, *argv, "--variant", "a=100%", "--variant", "b")
    assert said.startswith("variants[1].weight: the fixed weights leave 0 per mille")
