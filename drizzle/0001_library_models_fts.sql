-- Full-text search over library models' name, description and tags, ranked with bm25.
CREATE VIRTUAL TABLE `library_models_fts` USING fts5(
	name, description, tags,
	content='library_models', content_rowid='id', tokenize='porter unicode61'
);--> statement-breakpoint
CREATE TRIGGER `library_models_fts_insert` AFTER INSERT ON `library_models` BEGIN
	INSERT INTO library_models_fts(rowid, name, description, tags) VALUES (new.id, new.name, new.description, new.tags);
END;--> statement-breakpoint
CREATE TRIGGER `library_models_fts_delete` AFTER DELETE ON `library_models` BEGIN
	INSERT INTO library_models_fts(library_models_fts, rowid, name, description, tags) VALUES ('delete', old.id, old.name, old.description, old.tags);
END;--> statement-breakpoint
CREATE TRIGGER `library_models_fts_update` AFTER UPDATE OF name, description, tags ON `library_models` BEGIN
	INSERT INTO library_models_fts(library_models_fts, rowid, name, description, tags) VALUES ('delete', old.id, old.name, old.description, old.tags);
	INSERT INTO library_models_fts(rowid, name, description, tags) VALUES (new.id, new.name, new.description, new.tags);
END;
