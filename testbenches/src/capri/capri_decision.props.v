// Properties of the compaction decision (SPEC §3.4; CAPRI paper §3.2, with TBC and
// TBC+ for comparison; combinational), proved for all inputs on the exported Verilog
// by `weft prove`. Policies: 0 TBC, 1 TBC+, 2 CAPRI.
module weft_prove (
    input clock,
    input [1:0] policy,
    input branch,
    input uniform,
    input diverged,
    input capt_hit,
    input capt_predict
);
    wire stall, bypass;
    wire [1:0] capt_op;
    WEFT_UUT uut (
        .policy(policy), .branch(branch), .uniform(uniform), .diverged(diverged),
        .capt_hit(capt_hit), .capt_predict(capt_predict), .stall(stall), .bypass(bypass),
        .capt_op(capt_op)
    );
    wire capri = policy == 2'd2;

    always @(*) begin
        // Off a branch nothing happens; at a branch a warp stalls or bypasses.
        p_one_action_at_a_branch:
            assert(branch ? stall != bypass : !stall && !bypass && capt_op == 2'd0);
        // CAPRI: a warp that did not diverge continues without touching the CAPT.
        p_capri_uniform_branch_continues:
            assert(!(capri && branch && !diverged) || (!stall && capt_op == 2'd0));
        // CAPRI: a divergent branch missing in the CAPT stalls and is inserted.
        p_capri_miss_stalls_and_inserts:
            assert(!(capri && branch && diverged && !capt_hit) || (stall && capt_op == 2'd1));
        // CAPRI: on a hit the prediction decides; no insert.
        p_capri_hit_follows_the_prediction:
            assert(!(capri && branch && diverged && capt_hit)
                   || (stall == capt_predict && capt_op == 2'd0));
        // TBC stalls at every branch; TBC+ at every branch that is not uniform.
        p_tbc_stalls_at_every_branch: assert(!(policy == 2'd0 && branch) || stall);
        p_tbc_plus_skips_uniform_branches:
            assert(!(policy == 2'd1 && branch) || stall == !uniform);
    end
endmodule
