//! The integration tests, gathered in one binary so that `cargo test`
//! links the crate once instead of once per file (each file is a module
//! named for what it checks; `support` holds what they share).

mod support;

mod astar_closures;
mod caps;
mod cli;
mod cli_io;
mod cli_levels;
mod doors;
mod flow_field;
mod game;
mod r#gen;
mod gen_cli;
mod gen_play;
mod golden_replays;
mod incremental;
mod jps_movingai;
mod lab_cli;
mod layers;
mod levels;
mod man;
mod moves;
mod movingai;
mod nav;
mod nav_cli;
mod picture;
mod picture_files;
mod planner;
mod play_cli;
mod replay;
mod replay_cli;
mod replay_json;
mod search_classic;
mod search_props;
mod sim;
mod sim_compare;
mod sim_flow;
mod sim_nav;
mod sim_orca;
mod smooth;
mod steer_orca;
mod steer_spatial;
mod steer_totality;
mod steer_walls;
mod threads;
mod tmux;
mod transcripts;
mod win_rates;
