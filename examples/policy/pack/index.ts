/**
 * The docs platform policy pack: every rule of `pulumi-docs-platform/policy` (docs/policy.md lists them). Levels and
 * settings come from ../policy-config.json, given to the CLI with `--policy-pack-config`.
 */
import { docsPolicyPack } from "pulumi-docs-platform/policy";

docsPolicyPack();
